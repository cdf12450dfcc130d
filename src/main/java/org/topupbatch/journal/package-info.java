/**
 * The journal: the durable record of batches, rows, orders and provider calls over JDBC (embedded H2 or PostgreSQL), its migrations, its locks, and the crash points the crash campaign uses.
 *
 * <p>May use the packages below it: provider, settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.journal;
