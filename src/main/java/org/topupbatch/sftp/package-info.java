/**
 * Inbox and reports on an SFTP server: bringing the server's batches into the local inbox and sending reports back.
 *
 * <p>May use the packages below it: intake, submit, track, report, observe, cluster, journal, provider, settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.sftp;
