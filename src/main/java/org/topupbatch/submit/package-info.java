/**
 * Submitting: the queue of accepted orders, the balance before a batch, and recording each create-order answer.
 *
 * <p>May use the packages below it: track, report, observe, cluster, journal, provider, settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.submit;
