/**
 * Tracking: webhooks, polling of pending orders, reconciling orders whose outcome is unknown, and what a provider's answer means for an order.
 *
 * <p>May use the packages below it: report, observe, cluster, journal, provider, settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.track;
