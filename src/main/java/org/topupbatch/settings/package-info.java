/**
 * Settings: every {@code topup.*} value as the operator wrote it, checked at start-up so that a bad one stops the product with one line naming it.
 *
 * <p>The lowest package: it uses nothing of the product but the sandbox's settings (to tell an embedded sandbox run). The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.settings;
