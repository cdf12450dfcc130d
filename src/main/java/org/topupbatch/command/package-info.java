/**
 * The command line: the jar's entry point ({@link org.topupbatch.command.TopupBatchMain}), one {@link org.topupbatch.command.Command} per operator command in its dispatch table; exit codes are {@link org.topupbatch.run.ExitCode}.
 *
 * <p>A command works in one frame: it takes what it needs from its {@link org.topupbatch.command.CommandContext}
 * (settings, the journal opened as it needs it, the provider session, out, err, clock), returns its exit code when
 * it did its work, and throws a {@link org.topupbatch.command.CommandFailure} when it cannot;
 * {@link org.topupbatch.command.CommandFrame} alone turns that, and the exceptions the commands share (a bad
 * setting, an unreadable journal, a provider that cannot be asked), into one line and the documented exit code.
 *
 * <p>May use the packages below it: config, run, sftp, intake, submit, track, report, observe, cluster, journal, provider, settings, and the sandbox. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.command;
