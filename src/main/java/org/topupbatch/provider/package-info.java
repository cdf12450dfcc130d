/**
 * The provider client: the operations, signing, the answers and their errors, the one rate budget every call passes, and the call log it keeps through an interface the journal implements.
 *
 * <p>May use the packages below it: settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.provider;
