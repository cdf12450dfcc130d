/**
 * The command line: the jar's entry point ({@link org.topupbatch.command.TopupBatchMain}), one {@link org.topupbatch.command.Command} per operator command in its dispatch table; exit codes are {@link org.topupbatch.run.ExitCode}.
 *
 * <p>May use the packages below it: config, run, sftp, intake, submit, track, report, observe, cluster, journal, provider, settings, and the sandbox. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.command;
