/**
 * Inbox and reports on an SFTP server: bringing the server's batches into the local inbox and sending reports back.
 *
 * <p>Once mode's fetch runs in a short-lived Camel of its own before the run's Camel Main is built, so that the run's inbox snapshot holds the batches it brought;
 * its beans are bound from {@link org.topupbatch.sftp.OnceFetchConfiguration}'s {@code @BindToRegistry} methods, as Camel Main binds a run's, never one by one.
 *
 * <p>May use the packages below it: intake, submit, track, report, observe, cluster, journal, provider, settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.sftp;
