/**
 * The run's lifecycle: checks before start-up, the start-up checks against the provider and the journal, once-mode's end of the run, the progress line, and the clean stop.
 *
 * <p>May use the packages below it: sftp, intake, submit, track, report, observe, cluster, journal, provider, settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.run;
