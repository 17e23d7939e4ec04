// Test-only: the SDKs read these variables; a developer's real key must never reach a fake.
export function clearLlmEnv(): void {
  for (const name of Object.keys(process.env)) {
    if (name.startsWith("ANTHROPIC_") || name.startsWith("OPENAI_")) delete process.env[name];
  }
}
