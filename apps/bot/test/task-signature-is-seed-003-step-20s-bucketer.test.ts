import { describe, expect, it } from "vitest";
import { taskSignatureOf } from "../src/skill-drafts/task-signature.js";

// Seed 003 step 20: lowercased, split on whitespace and ASCII punctuation, stopwords and short tokens dropped, the
// top three tokens by length, sorted, joined with "-".
describe("the task signature (seed 003 step 20)", () => {
  it("takes the three longest words, sorted and joined with '-'", () => {
    expect(taskSignatureOf("Deploy the staging branch to Kubernetes")).toBe("deploy-kubernetes-staging");
  });

  it("is the same for requests that differ in case, punctuation, stopwords and word order", () => {
    const one = taskSignatureOf("please deploy the staging branch to kubernetes!");
    expect(taskSignatureOf("Kubernetes: deploy (staging), branch...")).toBe(one);
    expect(taskSignatureOf("DEPLOY staging/branch -> kubernetes?")).toBe(one);
  });

  it("splits on every ASCII punctuation character, not on other letters", () => {
    expect(taskSignatureOf("backup_database;rotate-logs{nightly}")).toBe("backup-database-nightly");
    expect(taskSignatureOf("résumé überprüfen")).toBe("résumé-überprüfen");
  });

  it("drops stopwords and tokens shorter than three characters", () => {
    expect(taskSignatureOf("Could you please do it for me, then")).toBe("");
    expect(taskSignatureOf("fix CI on db")).toBe("fix");
  });

  it("counts a word once, and among equally long words keeps the earlier", () => {
    expect(taskSignatureOf("alpha alpha alpha bravo delta charlie")).toBe("alpha-bravo-charlie");
  });

  it("is empty for an empty or punctuation-only input", () => {
    expect(taskSignatureOf("")).toBe("");
    expect(taskSignatureOf("?!... --- ;;")).toBe("");
  });
});
