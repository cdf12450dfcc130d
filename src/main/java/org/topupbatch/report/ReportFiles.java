package org.topupbatch.report;

import java.nio.file.Path;

/** What a report run wrote; {@code resultCsv} is null for an unreadable batch. */
public record ReportFiles(Path resultCsv, Path summaryJson, ReportSummary summary) {
}
