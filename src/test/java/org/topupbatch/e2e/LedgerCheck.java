package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.api.SoftAssertions;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * The end-to-end promises, checked against the sandbox's ledger: every reported order is the
 * provider's order with the same status, serial and price; nothing was ordered that no file
 * asked for; no ref_id twice; no 429; the summary adds up.
 */
final class LedgerCheck {

    private LedgerCheck() {
    }

    static void assertConsistent(SandboxProvider sandbox, Collection<Report> reports) {
        List<LedgerEntry> ledger = sandbox.ledger();
        Map<String, LedgerEntry> byRef = new HashMap<>();
        SoftAssertions soft = new SoftAssertions();
        for (LedgerEntry e : ledger) {
            soft.assertThat(byRef.put(e.refId(), e)).as("ref_id %s ordered twice", e.refId()).isNull();
        }
        Set<String> reportedOrders = new HashSet<>();
        Set<String> inputRefs = new HashSet<>();
        for (Report report : reports) {
            for (Map<String, String> row : report.rows()) {
                String ref = row.get("ref_id");
                inputRefs.add(ref);
                String status = row.get("status");
                LedgerEntry order = byRef.get(ref);
                String where = "line " + row.get("line") + " (" + ref + ")";
                switch (status) {
                    case "success", "failed", "pending" -> {
                        if (status.equals("failed") && row.get("price").isEmpty()) {
                            // refused at creation: no order may exist for it from this row
                            soft.assertThat(order == null || reportedOrders.contains(ref)).as(where + " refused but ordered").isTrue();
                            break;
                        }
                        soft.assertThat(order).as(where + " reported " + status + " but not in the ledger").isNotNull();
                        if (order != null) {
                            soft.assertThat(reportedOrders.add(ref)).as(where + " reported as an order twice").isTrue();
                            soft.assertThat(status).as(where + " status").isEqualTo(order.status());
                            soft.assertThat(row.get("serial_number")).as(where + " serial")
                                    .isEqualTo(order.serialNumber() == null ? "" : order.serialNumber());
                            soft.assertThat(row.get("price")).as(where + " price").isEqualTo(Long.toString(order.price()));
                        }
                    }
                    case "rejected" -> soft.assertThat(row.get("message")).as(where + " rejected without a reason").isNotBlank();
                    default -> soft.fail(where + " has status " + status);
                }
            }
            checkSummary(soft, report);
        }
        for (LedgerEntry e : ledger) {
            soft.assertThat(inputRefs).as("ledger order %s comes from no file", e.refId()).contains(e.refId());
            soft.assertThat(reportedOrders).as("ledger order %s is not reported as an order", e.refId()).contains(e.refId());
        }
        soft.assertThat(sandbox.stats().rateLimited()).as("429 answers").isZero();
        soft.assertAll();
    }

    private static void checkSummary(SoftAssertions soft, Report report) {
        var s = report.summary();
        long success = report.count("success");
        long failed = report.count("failed");
        // a row never sent shows pending ("not yet submitted ...") in the file, and is counted queued in the summary
        long queued = report.rows().stream().filter(r -> r.get("status").equals("pending")
                && r.get("message").startsWith("not yet submitted")).count();
        long pending = report.count("pending") - queued;
        long rejected = report.count("rejected");
        soft.assertThat(s.get("rows").asLong()).as("summary rows").isEqualTo(report.rows().size());
        soft.assertThat(s.get("success").asLong()).as("summary success").isEqualTo(success);
        soft.assertThat(s.get("failed").asLong()).as("summary failed").isEqualTo(failed);
        soft.assertThat(s.get("pending").asLong()).as("summary pending").isEqualTo(pending);
        soft.assertThat(s.get("rejected").asLong()).as("summary rejected").isEqualTo(rejected);
        soft.assertThat(s.get("queued").asLong()).as("summary queued").isEqualTo(queued);
        soft.assertThat(s.get("submitted").asLong()).as("summary submitted").isEqualTo(success + failed + pending);
        long charged = report.rows().stream()
                .filter(r -> r.get("status").equals("success") || r.get("status").equals("pending"))
                .filter(r -> !r.get("price").isEmpty())
                .mapToLong(r -> Long.parseLong(r.get("price"))).sum();
        soft.assertThat(s.get("charged").asLong()).as("summary charged").isEqualTo(charged);
        assertThat(s.get("started_at").isTextual()).isTrue();
        assertThat(s.get("finished_at").isTextual()).isTrue();
    }
}
