// Repositories named by URL (file://, ssh://, https://, git://, or scp-like user@host:path) instead of a local path.

const schemeUrl = /^(file|ssh|git|https?|git\+ssh|ssh\+git):\/\//i;
const scpLike = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:(?!\/\/)/;
const userInfo = /^([a-z+]+:\/\/)([^@/]*)@/i;

/** True when `repo` is a git URL rather than a local path. */
export function isRepoUrl(repo: string): boolean {
  return schemeUrl.test(repo) || scpLike.test(repo);
}

/**
 * Why a repository URL may not be used, or undefined: credentials in the URL would travel through history and logs,
 * so only an ssh user name is allowed there; the rest comes from the host's git configuration or SSH agent.
 */
export function repoUrlProblem(repo: string): string | undefined {
  const match = userInfo.exec(repo);
  if (!match) return undefined;
  const isSsh = /^(ssh|git\+ssh|ssh\+git):\/\//i.test(match[1] ?? '');
  if (isSsh && !(match[2] ?? '').includes(':')) return undefined;
  return 'must not contain credentials (user:password@ or token@): give them to git on each host instead (credential helper, SSH agent)';
}

/** `text` with the user information of every URL in it removed, for anything recorded (logs, errors, artifacts). */
export function redactUrls(text: string): string {
  return text.replace(/\b([a-z+]+:\/\/)[^@/\s]*@/gi, '$1');
}
