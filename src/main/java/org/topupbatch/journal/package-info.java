/**
 * The journal: the durable record of batches, rows, orders and provider calls over JDBC (embedded H2 or PostgreSQL), its migrations, its locks, and the crash points the crash campaign uses.
 *
 * <p>Each part of the product sees the journal through the role it uses ({@link org.topupbatch.journal.IntakeJournal},
 * {@link org.topupbatch.journal.SubmissionJournal}, {@link org.topupbatch.journal.TrackingJournal} and the others);
 * {@link org.topupbatch.journal.Journal}, what is opened and closed, only hands the roles out, and only the wiring
 * and the commands hold it ({@code JournalRolesTest}).
 *
 * <p>May use the packages below it: provider, settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.journal;
