/**
 * Observation: health checks, Prometheus metrics and the dashboard's view of the run.
 *
 * <p>May use the packages below it: cluster, journal, provider, settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.observe;
