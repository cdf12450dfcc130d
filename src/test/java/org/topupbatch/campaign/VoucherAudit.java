package org.topupbatch.campaign;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.topupbatch.testing.SmsGateway.Sms;

/**
 * The customers' side of the messages' promise (docs/customer-messages.md), checked alongside
 * {@link MessageAudit} once the campaign is over, from what the SMS gateway received and the final
 * reports: every row reported {@code success} with a notify_to had its voucher message delivered at
 * least once (none lost) and, deduplicated by event id, under exactly one event id; the message went
 * to that row's number and holds that row's serial from the report; no row that is not a success got
 * a message, nor was one tried for it; a row the report says {@code sent} was delivered. The same event
 * id delivered twice (a kill between the gateway's answer and the outbox's record of it) is what the
 * contract allows: counted, not an anomaly.
 */
final class VoucherAudit {

    /** The message names its row through the default template's line {@code No. transaksi: {ref_id}}. */
    private static final Pattern REF = Pattern.compile("No\\. transaksi: (\\S+)");

    record Result(List<String> anomalies, int requests, int due, int delivered, int duplicates, int lost) {

        String describe() {
            return String.format("%d SMS requests, %d vouchers due, %d delivered, %d duplicates seen (same event id again), %d lost",
                    requests, due, delivered, duplicates, lost);
        }
    }

    private VoucherAudit() {
    }

    static Result check(List<Sms> received, Path reports, Collection<CampaignBatch> batches) {
        List<String> anomalies = new ArrayList<>();
        Map<String, String> notifyTo = new LinkedHashMap<>();
        batches.forEach(b -> notifyTo.putAll(b.notifyToByRef()));
        Map<String, List<Sms>> triesByRef = new LinkedHashMap<>();
        Map<String, Set<String>> deliveredIdsByRef = new LinkedHashMap<>();
        Map<String, Integer> deliveriesById = new LinkedHashMap<>();
        Map<String, String> refById = new LinkedHashMap<>();
        for (int i = 0; i < received.size(); i++) {
            Sms sms = received.get(i);
            String where = "SMS request " + (i + 1) + " (" + sms.eventId() + " to " + sms.to() + ")";
            Matcher ref = REF.matcher(sms.text());
            if (!ref.find() || !notifyTo.containsKey(ref.group(1))) {
                anomalies.add(where + ": names no campaign row with a notify_to: " + sms.text());
                continue;
            }
            String row = ref.group(1);
            if (!sms.to().equals(notifyTo.get(row))) {
                anomalies.add(where + ": " + row + "'s message went to " + sms.to() + ", its notify_to is " + notifyTo.get(row));
            }
            if (!sms.eventId().matches("voucher_\\d+") || !sms.eventId().equals(sms.headerEventId())) {
                anomalies.add(where + ": event id " + sms.eventId() + ", header " + sms.headerEventId());
            }
            String before = refById.putIfAbsent(sms.eventId(), row);
            if (before != null && !before.equals(row)) {
                anomalies.add(where + ": event id " + sms.eventId() + " names " + row + " and " + before);
            }
            triesByRef.computeIfAbsent(row, r -> new ArrayList<>()).add(sms);
            if (sms.answered() / 100 == 2) {
                deliveredIdsByRef.computeIfAbsent(row, r -> new LinkedHashSet<>()).add(sms.eventId());
                deliveriesById.merge(sms.eventId(), 1, Integer::sum);
            }
        }
        int due = 0;
        int lost = 0;
        for (CampaignBatch batch : batches) {
            Path csv = reports.resolve(batch.baseName() + ".result.csv");
            if (batch.notifyToByRef().isEmpty() || !Files.exists(csv)) {
                continue; // a batch not reported is LedgerAudit's anomaly
            }
            List<Map<String, String>> rows;
            try {
                rows = LedgerAudit.readCsv(csv);
            } catch (IOException | RuntimeException e) {
                anomalies.add(csv.getFileName() + " does not parse: " + e);
                continue;
            }
            for (Map<String, String> row : rows) {
                String ref = row.get("ref_id");
                if (!batch.notifyToByRef().containsKey(ref)) {
                    continue;
                }
                String where = batch.fileName() + " line " + row.get("line") + " (" + ref + ", " + row.get("status") + ")";
                List<Sms> tries = triesByRef.getOrDefault(ref, List.of());
                Set<String> ids = deliveredIdsByRef.getOrDefault(ref, Set.of());
                if (!"success".equals(row.get("status"))) {
                    if (!tries.isEmpty()) {
                        anomalies.add(where + ": not a success, yet its customer was sent " + tries.size() + " message(s)");
                    }
                    continue;
                }
                due++;
                if (ids.isEmpty()) {
                    lost++;
                    anomalies.add(where + ": its voucher message was never delivered (lost; " + tries.size() + " tries)");
                    continue;
                }
                if (ids.size() > 1) {
                    anomalies.add(where + ": its voucher was delivered under " + ids.size() + " event ids " + ids
                            + ": deduplicated by event id it arrived more than once");
                }
                String serial = row.get("serial_number");
                tries.stream().filter(s -> s.answered() / 100 == 2 && !s.text().contains("SN / kode voucher: " + serial + "\n"))
                        .findFirst().ifPresent(s -> anomalies.add(where + ": the message does not hold the reported serial "
                                + serial + ": " + s.text()));
            }
            rows.stream().filter(r -> "sent".equals(r.get("customer_notified")))
                    .filter(r -> !deliveredIdsByRef.containsKey(r.get("ref_id")))
                    .forEach(r -> anomalies.add(batch.fileName() + " line " + r.get("line") + " (" + r.get("ref_id")
                            + "): the report says sent, the gateway never took its message"));
        }
        int duplicates = deliveriesById.values().stream().mapToInt(n -> n - 1).sum();
        return new Result(anomalies, received.size(), due, deliveriesById.size(), duplicates, lost);
    }
}
