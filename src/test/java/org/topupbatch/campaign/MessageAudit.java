package org.topupbatch.campaign;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.topupbatch.testing.CallbackReceiver.Received;

/**
 * The messages' promise (docs/callbacks.md), checked from the ERP's side once the campaign is over:
 * every batch reported (its summary.json in reports/) had its {@code batch_reported} callback
 * delivered at least once (none lost) and, deduplicated by event id, exactly once (one event id per
 * batch); every request's signature is valid and its header's event id is the body's. Delivered twice
 * with one event id (a kill between the receiver's answer and the outbox's record of it) is what the
 * contract allows: counted, not an anomaly. Also measures the delay from a batch's report (its
 * summary.json written) to the first try of its callback.
 */
final class MessageAudit {

    record Result(List<String> anomalies, int requests, int delivered, int duplicates, int lost,
                  Duration medianDelay, Duration maxDelay) {

        String describe() {
            return String.format("%d callback requests, %d messages delivered, %d duplicates seen (same event id again), %d lost,"
                    + " report to first try median %d ms, max %d ms", requests, delivered, duplicates, lost,
                    medianDelay.toMillis(), maxDelay.toMillis());
        }
    }

    private MessageAudit() {
    }

    static Result check(List<Received> received, Path reports, Collection<CampaignBatch> batches) {
        ObjectMapper json = new ObjectMapper();
        List<String> anomalies = new ArrayList<>();
        Map<String, Set<String>> deliveredIdsByFile = new LinkedHashMap<>();
        Map<String, Integer> deliveriesById = new LinkedHashMap<>();
        Map<String, Instant> firstTryByFile = new LinkedHashMap<>();
        Set<String> names = new LinkedHashSet<>();
        batches.forEach(b -> names.add(b.fileName()));
        for (int i = 0; i < received.size(); i++) {
            Received r = received.get(i);
            String where = "callback request " + (i + 1) + " (" + r.eventId() + ")";
            if (!r.verified()) {
                anomalies.add(where + ": the signature does not verify: " + r.signature());
            }
            JsonNode body;
            try {
                body = json.readTree(r.body());
            } catch (IOException e) {
                anomalies.add(where + ": the body is not JSON: " + r.body());
                continue;
            }
            String file = body.path("file").asText();
            if (!"batch_reported".equals(body.path("event").asText()) || !names.contains(file)) {
                anomalies.add(where + ": not a batch_reported callback of a campaign batch: " + r.body());
                continue;
            }
            if (!body.path("event_id").asText().equals(r.eventId())) {
                anomalies.add(where + ": the body's event_id " + body.path("event_id").asText() + " differs from the header's");
            }
            firstTryByFile.putIfAbsent(file, r.at());
            if (r.answered() / 100 == 2) {
                deliveredIdsByFile.computeIfAbsent(file, f -> new LinkedHashSet<>()).add(r.eventId());
                deliveriesById.merge(r.eventId(), 1, Integer::sum);
            }
        }
        int lost = 0;
        List<Duration> delays = new ArrayList<>();
        for (CampaignBatch batch : batches) {
            Path summary = reports.resolve(batch.baseName() + ".summary.json");
            Set<String> ids = deliveredIdsByFile.getOrDefault(batch.fileName(), Set.of());
            if (!Files.exists(summary)) {
                if (!ids.isEmpty()) {
                    anomalies.add(batch.fileName() + " is not reported, yet its batch_reported callback was delivered");
                }
                continue;
            }
            if (ids.isEmpty()) {
                lost++;
                anomalies.add(batch.fileName() + " is reported, its batch_reported callback was never delivered (lost)");
            } else if (ids.size() > 1) {
                anomalies.add(batch.fileName() + "'s batch_reported was delivered under " + ids.size()
                        + " event ids " + ids + ": deduplicated by event id it arrived more than once");
            }
            Instant firstTry = firstTryByFile.get(batch.fileName());
            if (firstTry != null) {
                try {
                    delays.add(Duration.between(Files.getLastModifiedTime(summary).toInstant(), firstTry));
                } catch (IOException e) {
                    anomalies.add(summary.getFileName() + " cannot be read: " + e);
                }
            }
        }
        int delivered = deliveriesById.size();
        int duplicates = deliveriesById.values().stream().mapToInt(n -> n - 1).sum();
        delays.sort(null);
        Duration median = delays.isEmpty() ? Duration.ZERO : delays.get(delays.size() / 2);
        Duration max = delays.isEmpty() ? Duration.ZERO : delays.get(delays.size() - 1);
        return new Result(anomalies, received.size(), delivered, duplicates, lost, median, max);
    }
}
