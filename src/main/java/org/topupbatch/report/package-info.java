/**
 * Reporting: the result CSV and summary JSON per batch, when a batch is due for its report, and money and time as operators read them.
 *
 * <p>May use the packages below it: observe, cluster, journal, provider, settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.report;
