/**
 * The page that asks for the WebChat access token: a plain form posting to /login, no script (the page's CSP
 * allows only its own files), styled by the page's own style.css.
 * Contract: pure; `wrong` adds the line saying the last token was not right.
 */
export function loginPage(wrong: boolean): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Chorus · WebChat · access token</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="/style.css" />
  </head>
  <body>
    <form class="login" method="post" action="/login">
      <h1>Chorus WebChat</h1>
      <p>This WebChat asks for its access token (the operator set it as <code>accessToken</code>).</p>
      ${wrong ? '<p class="login-error" role="alert">That token is not right. Try again.</p>\n      ' : ""}<label for="token">Access token</label>
      <input id="token" name="token" type="password" autocomplete="current-password" required autofocus />
      <button type="submit">Open the chat</button>
    </form>
  </body>
</html>
`;
}
