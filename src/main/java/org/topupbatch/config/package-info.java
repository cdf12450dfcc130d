/**
 * Wiring: Camel Main's configuration classes, which bind every bean the routes call, and the application that starts Camel Main with the route files.
 *
 * <p>May use the packages below it: run, sftp, intake, submit, track, report, observe, cluster, journal, provider, settings, and the sandbox. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.config;
