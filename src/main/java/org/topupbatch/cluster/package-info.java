/**
 * Two nodes: leadership through Camel's cluster service over the journal's lock, and each node's name and role.
 *
 * <p>May use the packages below it: journal, provider, settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.cluster;
