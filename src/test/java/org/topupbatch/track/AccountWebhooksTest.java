package org.topupbatch.track;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.commons.codec.digest.HmacAlgorithms;
import org.apache.commons.codec.digest.HmacUtils;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowRoute;
import org.topupbatch.journal.RowState;
import org.topupbatch.journal.TrackingJournal;

/**
 * Webhooks with several accounts (docs/accounts-and-dialects.md#several-accounts): at account {@code main}'s address
 * (seed dialect, md5 in the body) and {@code dfz}'s (Digiflazz, X-Hub-Signature), each verified with its
 * own secret, settling only an order placed at that account under the ref_id it names. Everything
 * else settles nothing and at most brings the order's look-up forward.
 */
class AccountWebhooksTest {

    static final String MAIN_SECRET = "whsec-main-1";
    static final String DFZ_SECRET = "whsec-dfz-2";
    static final Instant NOW = Instant.parse("2026-11-27T08:00:00Z");
    static final Instant LATER = NOW.plusSeconds(75);

    final RowsByRef journal = new RowsByRef();
    final WebhookReceiver receiver = receiver(MAIN_SECRET, DFZ_SECRET);

    WebhookReceiver receiver(String mainSecret, String dfzSecret) {
        Map<String, WebhookAuthenticator> accounts = new LinkedHashMap<>();
        accounts.put("main", new WebhookAuthenticator(mainSecret, false));
        accounts.put("dfz", new WebhookAuthenticator(dfzSecret, true));
        return new WebhookReceiver(journal, new WebhookAuthenticator(MAIN_SECRET), accounts, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    /** A pending row routed main first, dfz second, now at attempt {@code attempt}. */
    RowRecord pending(String refId, int attempt) {
        RowRoute route = new RowRoute(List.of(new RowRoute.Stop("main", "TSEL10", 10_500),
                new RowRoute.Stop("dfz", "tsel10", 10_400), new RowRoute.Stop("third", "T10", 10_600)));
        RowRecord row = new RowRecord(journal.rows.size() + 1, 1, journal.rows.size(), 2, refId, "TSEL10", "081212340001",
                null, null, List.of(), RowState.PENDING, null, 10_500L, "pending", NOW, NOW, NOW, 0, LATER, route, attempt);
        journal.rows.put(refId, row);
        return row;
    }

    static byte[] mainBody(String refId, String status, String secret) {
        String signature = secret == null ? "" : ",\"signature\":\"" + DigestUtils.md5Hex(secret + refId + status) + "\"";
        return ("{\"event\":\"order.updated\",\"data\":{\"ref_id\":\"" + refId + "\",\"product_sku\":\"TSEL10\","
                + "\"customer_no\":\"081212340001\",\"status\":\"" + status + "\",\"serial_number\":\"SN-1\","
                + "\"price\":10400,\"message\":\"ok\"}" + signature + "}").getBytes(StandardCharsets.UTF_8);
    }

    static byte[] dfzBody(String refId, String sku, String status) {
        return ("{\"data\":{\"trx_id\":\"5f1c\",\"ref_id\":\"" + refId + "\",\"customer_no\":\"081212340001\","
                + "\"buyer_sku_code\":\"" + sku + "\",\"message\":\"Transaksi " + status + "\",\"status\":\"" + status
                + "\",\"rc\":\"00\",\"sn\":\"SN-2\",\"price\":10355}}").getBytes(StandardCharsets.UTF_8);
    }

    static String hub(String secret, byte[] body) {
        return "sha1=" + new HmacUtils(HmacAlgorithms.HMAC_SHA_1, secret).hmacHex(body);
    }

    @Test
    void an_authentic_webhook_at_each_accounts_address_settles_its_order() {
        pending("R-1", 1);
        pending("R-2", 2);
        byte[] atDfz = dfzBody("R-2-F2", "tsel10", "Sukses");

        assertThat(receiver.handleAt("main", mainBody("R-1", "success", MAIN_SECRET), null)).isEqualTo("ok");
        assertThat(receiver.handleAt("dfz", atDfz, hub(DFZ_SECRET, atDfz))).isEqualTo("ok");

        assertThat(journal.row("R-1").state()).isEqualTo(RowState.SUCCESS);
        assertThat(journal.row("R-1").serialNumber()).isEqualTo("SN-1");
        assertThat(journal.row("R-2").state()).as("R-2 is ordered at dfz as R-2-F2").isEqualTo(RowState.SUCCESS);
        assertThat(journal.row("R-2").serialNumber()).isEqualTo("SN-2");
        assertThat(journal.checks).as("no look-up brought forward").isEmpty();
    }

    @Test
    void a_webhook_signed_with_the_other_accounts_secret_settles_nothing_and_is_a_hint() {
        pending("R-1", 1);
        pending("R-2", 2);
        byte[] atDfz = dfzBody("R-2-F2", "tsel10", "Gagal");

        receiver.handleAt("main", mainBody("R-1", "failed", DFZ_SECRET), null);
        receiver.handleAt("dfz", atDfz, hub(MAIN_SECRET, atDfz));
        // each scheme at the other's address: an in-body md5 where the header is expected, and the other way
        receiver.handleAt("dfz", mainBody("R-2-F2", "failed", DFZ_SECRET), null);
        receiver.handleAt("main", atDfz, hub(DFZ_SECRET, atDfz));

        assertThat(journal.row("R-1").state()).isEqualTo(RowState.PENDING);
        assertThat(journal.row("R-2").state()).isEqualTo(RowState.PENDING);
        assertThat(journal.checks).as("each a hint: its look-up now").containsOnlyKeys("R-1", "R-2").containsValues(NOW);
    }

    @Test
    void an_authentic_webhook_naming_an_order_of_the_other_account_settles_nothing() {
        pending("R-1", 1);  // at main as R-1
        pending("R-2", 2);  // at dfz as R-2-F2
        byte[] namesMains = dfzBody("R-1", "TSEL10", "Gagal");
        byte[] namesOld = dfzBody("R-2", "tsel10", "Gagal");

        receiver.handleAt("dfz", namesMains, hub(DFZ_SECRET, namesMains));
        receiver.handleAt("main", mainBody("R-2-F2", "failed", MAIN_SECRET), null);
        receiver.handleAt("dfz", namesOld, hub(DFZ_SECRET, namesOld)); // the row's own ref_id, but it is not ordered so at dfz
        receiver.handleAt("main", mainBody("R-2", "failed", MAIN_SECRET), null); // R-2 left main: not its order now

        assertThat(journal.row("R-1").state()).isEqualTo(RowState.PENDING);
        assertThat(journal.row("R-2").state()).isEqualTo(RowState.PENDING);
    }

    @Test
    void a_fallback_ref_id_names_only_the_attempt_the_row_is_at() {
        pending("R-3", 3); // gone on to its third account as R-3-F3: R-3-F2 is no order of ours
        byte[] body = dfzBody("R-3-F2", "tsel10", "Sukses");

        assertThat(receiver.handleAt("dfz", body, hub(DFZ_SECRET, body))).isEqualTo("ignored");

        assertThat(journal.row("R-3").state()).isEqualTo(RowState.PENDING);
        assertThat(journal.checks).isEmpty();
    }

    @Test
    void unsigned_webhooks_or_those_of_an_account_without_a_secret_are_hints() {
        WebhookReceiver noDfzSecret = receiver(MAIN_SECRET, null);
        pending("R-1", 1);
        pending("R-2", 2);
        byte[] atDfz = dfzBody("R-2-F2", "tsel10", "Sukses");

        receiver.handleAt("main", mainBody("R-1", "success", null), null);
        noDfzSecret.handleAt("dfz", atDfz, hub(DFZ_SECRET, atDfz));

        assertThat(journal.row("R-1").state()).isEqualTo(RowState.PENDING);
        assertThat(journal.row("R-2").state()).isEqualTo(RowState.PENDING);
        assertThat(journal.checks).containsOnlyKeys("R-1", "R-2").containsValues(NOW);
    }

    @Test
    void the_plain_address_with_several_accounts_only_hints() {
        pending("R-1", 1);

        assertThat(receiver.handle(mainBody("R-1", "success", MAIN_SECRET), null)).isEqualTo("ok");

        assertThat(journal.row("R-1").state()).isEqualTo(RowState.PENDING);
        assertThat(journal.checks).containsOnlyKeys("R-1");
    }

    @Test
    void hostile_webhooks_settle_nothing_and_are_answered() {
        pending("R-1", 1);
        byte[] huge = new byte[64 * 1024 + 1];
        java.util.Arrays.fill(huge, (byte) ' ');
        byte[] good = mainBody("R-1", "success", MAIN_SECRET);
        System.arraycopy(good, 0, huge, 0, good.length); // a valid webhook padded past the limit

        assertThat(receiver.handleAt("nobody", good, null)).as("an address of no account").isEqualTo("ignored");
        assertThat(receiver.handleAt("main", huge, null)).isEqualTo("ignored");
        assertThat(receiver.handleAt("main", "{\"data\":[1,2]".getBytes(StandardCharsets.UTF_8), null)).isEqualTo("ignored");
        assertThat(receiver.handleAt("main", null, null)).isEqualTo("ignored");
        assertThat(receiver.handleAt("dfz", good, "sha1=zz")).isEqualTo("ok"); // a hint

        assertThat(journal.row("R-1").state()).isEqualTo(RowState.PENDING);
    }

    @Test
    void a_replayed_authentic_webhook_changes_nothing_once_its_order_is_final() {
        pending("R-1", 1);
        receiver.handleAt("main", mainBody("R-1", "success", MAIN_SECRET), null);

        assertThat(receiver.handleAt("main", mainBody("R-1", "failed", MAIN_SECRET), null)).isEqualTo("ok");
        assertThat(receiver.handleAt("main", mainBody("R-1", "success", MAIN_SECRET), null)).isEqualTo("ok");

        assertThat(journal.row("R-1").state()).isEqualTo(RowState.SUCCESS);
        assertThat(journal.outcomes).as("recorded once").isEqualTo(1);
    }

    /** The real journal: a row moved on to dfz keeps its own ref_id in the journal, its order there is R-9-F2. */
    @Test
    void a_row_moved_to_its_next_account_is_settled_by_that_accounts_webhook_naming_its_fallback_ref_id(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        try (org.topupbatch.journal.JdbcJournal h2 = org.topupbatch.journal.JdbcJournal.open(dir, "", null, null,
                Clock.fixed(NOW, ZoneOffset.UTC))) {
            RowRoute route = new RowRoute(List.of(new RowRoute.Stop("main", "TSEL10", 10_500),
                    new RowRoute.Stop("dfz", "tsel10", 10_400)));
            try (org.topupbatch.journal.BatchWriter writer = h2.intake().openBatch("t.csv", ',', List.of(), "archive/t.csv")) {
                writer.add(new org.topupbatch.journal.NewRow(0, 2, "R-9", "TSEL10", "081212340001", null, null, List.of(),
                        RowState.ACCEPTED, 10_500L, null, null, route));
                writer.commit();
            }
            long id = h2.tracking().findOrder("R-9").orElseThrow().id();
            assertThat(h2.submission().markSending(id, NOW)).isTrue();
            assertThat(h2.submission().fallBack(id, 1, 10_400, "main refused R-9: PRODUCT_UNAVAILABLE")).isTrue();
            assertThat(h2.submission().markSending(id, NOW)).isTrue();
            h2.submission().recordOutcome(id, RowState.PENDING, null, null, "pending");
            Map<String, WebhookAuthenticator> accounts = new LinkedHashMap<>();
            accounts.put("main", new WebhookAuthenticator(MAIN_SECRET, false));
            accounts.put("dfz", new WebhookAuthenticator(DFZ_SECRET, true));
            WebhookReceiver onH2 = new WebhookReceiver(h2.tracking(), new WebhookAuthenticator(null), accounts,
                    Clock.fixed(NOW, ZoneOffset.UTC));

            onH2.handleAt("main", mainBody("R-9", "failed", MAIN_SECRET), null); // main's word on an order it never took
            assertThat(h2.tracking().findOrder("R-9").orElseThrow().state()).isEqualTo(RowState.PENDING);
            byte[] body = dfzBody("R-9-F2", "tsel10", "Sukses");
            onH2.handleAt("dfz", body, hub(DFZ_SECRET, body));

            RowRecord row = h2.tracking().findOrder("R-9").orElseThrow();
            assertThat(row.account()).isEqualTo("dfz");
            assertThat(row.state()).isEqualTo(RowState.SUCCESS);
            assertThat(row.serialNumber()).isEqualTo("SN-2");
        }
    }

    /** The journal as the receiver uses it: rows found by their own ref_id, as batch_row.order_ref_id is. */
    static final class RowsByRef implements TrackingJournal {
        final Map<String, RowRecord> rows = new LinkedHashMap<>();
        final Map<String, Instant> checks = new LinkedHashMap<>();
        int outcomes;

        RowRecord row(String refId) {
            return rows.get(refId);
        }

        @Override
        public Optional<RowRecord> findOrder(String refId) {
            return Optional.ofNullable(rows.get(refId));
        }

        @Override
        public boolean recordOutcome(long rowId, RowState state, String serialNumber, Long price, String message) {
            for (RowRecord r : new ArrayList<>(rows.values())) {
                if (r.id() == rowId && !r.state().isFinal()) {
                    outcomes++;
                    rows.put(r.refId(), new RowRecord(r.id(), r.batchId(), r.seq(), r.line(), r.refId(), r.productSku(),
                            r.customerNo(), r.customerNoZone(), r.maxPrice(), r.extras(), state, serialNumber, price, message,
                            r.createdAt(), NOW, r.sentAt(), r.checks(), r.nextCheckAt(), r.route(), r.attempt()));
                    return true;
                }
            }
            return false;
        }

        @Override
        public void scheduleCheck(long rowId, Instant nextCheckAt, int checks) {
            rows.values().stream().filter(r -> r.id() == rowId).forEach(r -> this.checks.put(r.refId(), nextCheckAt));
        }

        @Override
        public void scheduleFirstCheck(long rowId, Instant nextCheckAt) {
            throw new UnsupportedOperationException(); // the receiver never answers a create-order
        }

        @Override
        public boolean rejectNeverTaken(long rowId, String message) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<RowRecord> dueForCheck(Instant now, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int sendingToUnknown(Instant now) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int pendingDueBy(Instant at) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<RowRecord> dueForCheckAt(Instant now, int limit, org.topupbatch.journal.AccountScope scope) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int sendingToUnknownElsewhere(Instant now, List<String> configured) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int sendingToUnknownAt(Instant now, String account) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int sendingAt(String account) {
            throw new UnsupportedOperationException();
        }
    }
}
