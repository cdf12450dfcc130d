/**
 * The sandbox provider: an independent implementation of the provider's interface, for trials and tests.
 *
 * <p>Uses nothing of the product: two independent sides catch what one shared mistake would hide. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.sandbox;
