/**
 * The drop-in path: `mvnx ARGS` runs Maven exactly as `mvn ARGS` would. A passing build
 * with no config costs a few stats and nothing else: the config stack is loaded only when
 * some config exists (so that its errors stop the run before Maven starts) or once the
 * build failed, and the repair pipeline is imported only once the output shows that the
 * build is failing (diagnose/failure-sign.ts), while Maven finishes.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { onFirstFailureSign } from '../diagnose/failure-sign.js';
import { findMaven } from '../maven/discover.js';
import { findProjectRoot } from '../maven/project.js';
import { mayHaveKilledRuns } from '../report/killed-runs-probe.js';
import { runMaven } from '../maven/run.js';
import type { EffectiveConfig } from '../policy/schema.js';
import { configFileMayExist, configGivenOnCommandLine } from './config-inputs.js';
import { cliOptions } from '../shared/options.js';
import type { Invocation } from './flags.js';

export interface CliIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export async function runBuild(invocation: Invocation, io: CliIo): Promise<number> {
  const { mavenArgs, flags } = invocation;
  const options = cliOptions(flags, io.env);
  const projectRoot = await findProjectRoot(io.cwd, mavenArgs);
  const configFile = typeof flags.config === 'string' ? path.resolve(io.cwd, flags.config) : undefined;
  const loadConfig = async (): Promise<EffectiveConfig> => {
    const { loadEffectiveConfig } = await import('../policy/load.js');
    return loadEffectiveConfig({ projectRoot, env: io.env, overrides: flags, ...(configFile ? { configFile } : {}) });
  };
  const hasConfig =
    configGivenOnCommandLine(flags, io.env) || (await configFileMayExist({ projectRoot, cwd: io.cwd, env: io.env }));
  let config = hasConfig ? await loadConfig() : undefined;

  // The effective maven.executable already folds in the flag and MVNX_MAVEN; pass it as
  // "config" only when a config file set it, so that errors name the right source.
  const executableSource = config?.sources['maven.executable'] ?? '';
  const fromConfigFile = !executableSource.startsWith('flag') && !executableSource.startsWith('env');
  const maven = await findMaven({
    ...(typeof flags.maven === 'string' ? { flag: flags.maven } : {}),
    env: io.env,
    ...(fromConfigFile && config?.maven.executable ? { configured: config.maven.executable } : {}),
    cwd: io.cwd,
    mavenArgs,
  });

  // On the first sign that the build fails, the repair stage (and the configuration loader, when no config was read
  // yet)
  // loads while Maven finishes: 0.3-0.4 s that every failed build used to wait for once it had ended. Then java-parser,
  // which the first prompt would otherwise load beside the flaky check's Maven, competing with it for the cores.
  const loadRepairEarly =
    config?.tier === 'off'
      ? undefined
      : onFirstFailureSign(async () => {
          await Promise.all([import('../app/index.js'), ...(config ? [] : [import('../policy/load.js')])]);
          (await import('../java/parse.js')).loadJavaParser();
        });
  // What a run killed outright left (its TMPDIR folders, a run folder without a record) is put right beside Maven's
  // build, off its path (killed-runs.ts), its module loaded only when a marked folder is there (killed-runs-probe.ts).
  const runsFolder = path.join(projectRoot, '.mvnx', 'runs');
  const killedRuns = mayHaveKilledRuns(runsFolder).then(async (found) => {
    if (!found) return { line: undefined };
    const module = await import('../report/killed-runs.js');
    return { line: module.killedRunsLine(await module.cleanUpKilledRuns(runsFolder)) };
  });
  killedRuns.catch(() => undefined);
  const result = await runMaven({
    executable: maven.executable,
    args: mavenArgs,
    cwd: io.cwd,
    env: io.env,
    echo: true,
    inheritStdin: true,
    ...(loadRepairEarly ? { onOutput: loadRepairEarly } : {}),
  });
  // mvnx's copy of the log is its own business: Maven ran, and its exit code stands either way.
  if (result.log.lost) process.stderr.write(`mvnx: ${result.log.lost}; Maven ran as usual and its exit code stands\n`);
  // --mvnx-sarif: a passing build (or one mvnx does not look at) still leaves a log, so code scanning can close earlier
  // alerts.
  const sarif = options.sarif;
  const emptySarif = async (note?: string) => {
    if (!sarif) return;
    const { writeEmptySarif } = await import('../report/sarif-file.js');
    await writeEmptySarif(path.resolve(io.cwd, sarif), note);
  };
  const { line: killedLine } = await killedRuns.catch(() => ({ line: undefined }));
  if (killedLine) process.stderr.write(`${killedLine}\n`);
  try {
    if (result.exitCode === 0) {
      await emptySarif();
      // Where mvnx already keeps runs: the POMs of this passing build, what a later dependency update is compared with.
      if (existsSync(path.join(projectRoot, '.mvnx')))
        await import('../report/passing-build.js').then((module) => module.rememberPassingBuild(projectRoot));
      return 0;
    }
    config ??= await loadConfig();
    if (config.tier === 'off') {
      await emptySarif('tier off: mvnx did not diagnose the failure');
      return result.exitCode;
    }
    const { handleBuildFailure } = await import('../app/index.js');
    return await handleBuildFailure({
      cwd: io.cwd,
      projectRoot,
      mavenExecutable: maven.executable,
      mavenSource: maven.source,
      mavenArgs,
      overrides: flags,
      options,
      env: io.env,
      ...(configFile ? { configFile } : {}),
      config,
      result,
    });
  } finally {
    await result.log.dispose();
  }
}
