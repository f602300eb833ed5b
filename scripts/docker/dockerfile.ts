import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Replays a Dockerfile's build without a Docker engine (these machines have only the
 * client): each stage gets a folder standing for its filesystem, COPY copies from the
 * build context (minus .dockerignore) or from an earlier stage's folder, RUN runs the
 * command on this machine in the stage's WORKDIR with the stage's ENV. What it proves:
 * every file a step needs is copied before the step, every command the image runs
 * exists and works from what the image holds. What it cannot: the base image's own
 * tools (Node and npm here are this machine's), USER and file ownership (RUN runs as
 * the current user; `chown` is a no-op).
 */
export type Instruction = { op: string; args: string; flags: Record<string, string> };
export type Stage = { name: string; from: string; instructions: Instruction[] };

export function parseDockerfile(text: string): Stage[] {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (current === '' && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push((current + line).trim());
    current = '';
  }
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op = '', rest = ''] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    const flags: Record<string, string> = {};
    let args = rest;
    for (let m = /^--([\w-]+)(?:=(\S+))?\s+/.exec(args); m; m = /^--([\w-]+)(?:=(\S+))?\s+/.exec(args)) {
      flags[m[1]!] = m[2] ?? 'true';
      args = args.slice(m[0].length);
    }
    const upper = op.toUpperCase();
    if (upper === 'FROM') {
      const [, from = '', name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ name: name ?? `stage${stages.length}`, from, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`${upper} before any FROM`);
    stage.instructions.push({ op: upper, args, flags });
  }
  return stages;
}

/** `.dockerignore` patterns (the forms this project uses: paths, `**\/name`, globs without `!`). */
export function dockerignore(contextDir: string): (relative: string) => boolean {
  const file = path.join(contextDir, '.dockerignore');
  const patterns = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [];
  const regexes = patterns.map((pattern) => {
    const p = pattern.replace(/^\/+|\/+$/g, '');
    let body = '';
    for (let i = 0; i < p.length; i++) {
      if (p.startsWith('**/', i)) {
        body += '(?:.*/)?';
        i += 2;
      } else if (p.startsWith('**', i)) {
        body += '.*';
        i += 1;
      } else {
        const c = p[i]!;
        body += c === '*' ? '[^/]*' : c === '?' ? '[^/]' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
    }
    return new RegExp(`^${body}(?:/.*)?$`);
  });
  return (relative) => regexes.some((r) => r.test(relative));
}

/** The paths of the lexically quoted JSON form (`["a", "b"]`) or the shell form. */
export function execForm(args: string): string[] | null {
  return args.trim().startsWith('[') ? (JSON.parse(args) as string[]) : null;
}

function copyTree(from: string, to: string, ignored: (rel: string) => boolean, rel: string): void {
  const stat = statSync(from);
  if (stat.isDirectory()) {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from)) {
      const childRel = rel ? `${rel}/${entry}` : entry;
      if (ignored(childRel)) continue;
      copyTree(path.join(from, entry), path.join(to, entry), ignored, childRel);
    }
  } else {
    mkdirSync(path.dirname(to), { recursive: true });
    cpSync(from, to, { dereference: false });
  }
}

export type ReplayedStage = { name: string; root: string; workdir: string; env: Record<string, string>; cmd: string[] | null; healthcheck: string[] | null; user?: string };

/**
 * Builds every stage in order under `outDir/<stage>`. `log` receives each step. Throws
 * with the step and its output when a step fails.
 */
export function replayBuild(opts: { dockerfile: string; contextDir: string; outDir: string; log: (line: string) => void }): Map<string, ReplayedStage> {
  const stages = parseDockerfile(readFileSync(opts.dockerfile, 'utf8'));
  const ignored = dockerignore(opts.contextDir);
  const built = new Map<string, ReplayedStage>();
  // RUN sees a chown that does nothing: ownership belongs to the container.
  const shims = path.join(opts.outDir, '.shims');
  mkdirSync(shims, { recursive: true });
  writeFileSync(path.join(shims, 'chown'), '#!/bin/sh\nexit 0\n');
  chmodSync(path.join(shims, 'chown'), 0o755);

  for (const stage of stages) {
    const root = path.join(opts.outDir, stage.name);
    const base = built.get(stage.from);
    if (base) {
      // FROM an earlier stage: the same files (hard links: fast, and the base is not changed by later steps that replace files).
      execFileSync('cp', ['-al', base.root, root]);
    } else {
      mkdirSync(root, { recursive: true });
    }
    const state: ReplayedStage = base
      ? { ...base, name: stage.name, root, env: { ...base.env } }
      : { name: stage.name, root, workdir: '/', env: {}, cmd: null, healthcheck: null };
    const inRoot = (p: string) => path.join(root, path.isAbsolute(p) ? p : path.join(state.workdir, p));
    for (const ins of stage.instructions) {
      opts.log(`[${stage.name}] ${ins.op} ${Object.entries(ins.flags).map(([k, v]) => `--${k}=${v} `).join('')}${ins.args}`);
      switch (ins.op) {
        case 'WORKDIR':
          state.workdir = path.posix.resolve(state.workdir, ins.args);
          mkdirSync(inRoot('.'), { recursive: true });
          break;
        case 'ENV':
          for (const m of ins.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) state.env[m[1]!] = m[2]!.replace(/^"|"$/g, '');
          break;
        case 'COPY': {
          const parts = execForm(ins.args) ?? ins.args.split(/\s+/);
          const dest = parts.pop()!;
          const fromStage = ins.flags.from ? built.get(ins.flags.from) : undefined;
          if (ins.flags.from && !fromStage) throw new Error(`COPY --from=${ins.flags.from}: no such stage before ${stage.name}`);
          for (const src of parts) {
            const source = fromStage ? path.join(fromStage.root, src) : path.join(opts.contextDir, src);
            if (!existsSync(source)) throw new Error(`COPY ${src}: not found in ${fromStage ? `stage ${fromStage.name}` : 'the build context'}`);
            // A directory's contents go into dest; a file goes to dest, or into it when dest is a folder.
            const isDir = statSync(source).isDirectory();
            const target = isDir || !(dest.endsWith('/') || parts.length > 1) ? inRoot(dest) : path.join(inRoot(dest), path.basename(src));
            const rel = fromStage ? '' : path.relative(opts.contextDir, source);
            if (!fromStage && rel && ignored(rel)) throw new Error(`COPY ${src}: excluded by .dockerignore`);
            copyTree(source, target, fromStage ? () => false : ignored, rel);
          }
          break;
        }
        case 'RUN': {
          const argv = execForm(ins.args) ?? ['sh', '-c', ins.args];
          const result = spawnSync(argv[0]!, argv.slice(1), {
            cwd: inRoot('.'),
            env: { PATH: `${shims}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '/root', ...state.env },
            encoding: 'utf8',
            maxBuffer: 64 * 1024 * 1024,
          });
          if (result.status !== 0) {
            throw new Error(`[${stage.name}] RUN ${ins.args} failed (exit ${result.status ?? result.signal}):\n${(result.stdout + result.stderr).slice(-4000)}`);
          }
          break;
        }
        case 'USER':
          state.user = ins.args;
          break;
        case 'CMD':
          state.cmd = execForm(ins.args) ?? ['sh', '-c', ins.args];
          break;
        case 'HEALTHCHECK': {
          const cmd = ins.args.replace(/^CMD\s+/i, '');
          state.healthcheck = execForm(cmd) ?? ['sh', '-c', cmd];
          break;
        }
        case 'EXPOSE':
        case 'LABEL':
        case 'ARG':
          break;
        default:
          throw new Error(`the replay does not know ${ins.op}`);
      }
    }
    built.set(stage.name, state);
  }
  return built;
}
