package org.topupbatch.door;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.topupbatch.intake.BatchCheck;
import org.topupbatch.intake.PlanSummary;
import org.topupbatch.intake.PlanWriter;
import org.topupbatch.journal.IntakeJournal;
import org.topupbatch.text.OneLine;

/**
 * The dashboard's preview of a file before it is ordered (docs/erp-doors.md#upload-with-a-preview): the
 * intake's own checks on the uploaded bytes, as {@code plan} runs them, recording nothing; answers
 * the rows, the rejected ones with their reasons, what the acceptable ones cost at the current
 * prices, the balance they would draw on, and the time at the account's rate.
 */
public final class UploadPreview {

    static final int REJECTED_SHOWN = 200;

    /** Builds the intake's checks as the service configures them. */
    public interface Checks {
        BatchCheck check();
    }

    private final IntakeJournal journal;
    private final Checks checks;
    private final LongSupplier balance;
    private final IntSupplier perMinute;
    private final Path staging;

    public UploadPreview(IntakeJournal journal, Checks checks, LongSupplier balance, IntSupplier perMinute, Path staging) {
        this.journal = journal;
        this.checks = checks;
        this.balance = balance;
        this.perMinute = perMinute;
        this.staging = staging;
    }

    /** The preview of {@code body} under {@code name} (.csv or .xlsx); throws for a file that is no batch. */
    Map<String, Object> preview(String name, byte[] body) throws IOException {
        Files.createDirectories(staging);
        String ext = name.toLowerCase(java.util.Locale.ROOT).endsWith(".xlsx") ? ".xlsx" : ".csv";
        Path file = Files.createTempFile(staging, ".preview-", ext);
        try {
            Files.write(file, body);
            List<Map<String, Object>> rejected = new ArrayList<>();
            long[] available = {0};
            PlanSummary summary = checks.check().check(file, (delimiter, encoding, extras) -> {
                available[0] = balance.getAsLong() - journal.reservedAmount();
                return new BatchCheck.Opened(new PlanWriter(journal::ordersAmong, journal::repeatsAmong), available[0]);
            }, (row, decision, rejection) -> {
                if (rejection != null && rejected.size() < REJECTED_SHOWN) {
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("line", row.line());
                    r.put("ref_id", OneLine.of(row.refId(), 100));
                    r.put("reason", OneLine.of(rejection, 500));
                    rejected.add(r);
                }
            });
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("file", name);
            view.put("rows", summary.rows());
            view.put("accepted", summary.accepted());
            view.put("rejected", summary.rejected());
            view.put("rejected_rows", rejected);
            view.put("cost", summary.totalPrice());
            view.put("balance", available[0]);
            view.put("covered", summary.totalPrice() <= available[0]);
            // orders leave at the account's rate, less the tenth left to look-ups (as plan says)
            double perMin = Math.max(1, perMinute.getAsInt() * 0.9);
            view.put("minutes", Math.ceil(summary.accepted() / perMin));
            return view;
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
