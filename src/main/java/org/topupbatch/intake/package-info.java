/**
 * Intake: reading a batch file (sniffing, header mapping, rows), checking each row before money is spent (price list, customer rules, max_price, ref_id), planning, and recording the batch in the journal.
 *
 * <p>May use the packages below it: submit, track, report, observe, cluster, journal, provider, settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.intake;
