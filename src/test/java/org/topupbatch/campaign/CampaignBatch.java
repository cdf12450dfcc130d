package org.topupbatch.campaign;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One seeded input file of the campaign: instant and async products, orders that fail at the
 * provider (customer numbers ending 0000), and rows the product must reject before spending money,
 * among them repeats of an earlier row of the file (the repeat guard is on). Every other row is for
 * a customer of its own ({@code ####}: four digits counted up), so no row repeats an earlier order.
 *
 * <p>A repeat waits for the outcome of the rows it repeats (docs/batch-files-and-reports.md#rejected-rows): it is to be
 * ordered only if none of them was delivered. {@code acceptedByRef} says false for it until
 * {@link #judged} knows those outcomes; {@code earlierOfRepeat} names, for each repeat, the earlier
 * rows of the file with the same product and customer, in file order. A crash while a repeat waits is
 * so part of every campaign.
 *
 * <p>A batch made with a {@code notify} random also has a {@code notify_to} column: a share of its
 * rows names a mobile number of its own ({@code notifyToByRef}, in the +628… form the product keeps),
 * whose customer gets the voucher by SMS when the row succeeds (docs/customer-messages.md).
 */
record CampaignBatch(String fileName, String content, Map<String, Boolean> acceptedByRef, int rows,
                     Map<String, List<String>> earlierOfRepeat, Map<String, String> notifyToByRef) {

    CampaignBatch(String fileName, String content, Map<String, Boolean> acceptedByRef, int rows) {
        this(fileName, content, acceptedByRef, rows, Map.of(), Map.of());
    }

    /**
     * The same batch with each repeat judged on the outcomes the provider gave ({@code statusByRef}:
     * a ref_id's order status, absent when never ordered): ordered unless a row it repeats was delivered.
     */
    CampaignBatch judged(java.util.function.Function<String, String> statusByRef) {
        Map<String, Boolean> judged = new LinkedHashMap<>(acceptedByRef);
        earlierOfRepeat.forEach((ref, earlier) -> judged.put(ref,
                earlier.stream().noneMatch(e -> "success".equals(statusByRef.apply(e)))));
        return new CampaignBatch(fileName, content, judged, rows, earlierOfRepeat, notifyToByRef);
    }

    private static final String[][] ACCEPTED = {
        {"FF100", "1234####", ""}, {"ML86", "12345####", "2345"}, {"TSEL10", "08123456####", ""},
        {"GI60", "81234####", "asia"}, {"STEAM45K", "gamer####@example.com", ""}, {"PUBG60", "512345####", ""},
        {"XL10", "08171234####", ""}, {"GP20K", "buyer####@example.com", ""}, {"XL10", "0817####0000", ""},
        {"GI60", "8####0000", "europe"}, {"TRI10", "0896####0000", ""},
    };
    /**
     * Products the crash campaign's market takes out of stock (CrashCampaign.MARKET): a row of one may
     * be rejected at intake, so a row repeating it would not be a repeat; repeats copy other products.
     */
    static final java.util.Set<String> MAY_GO_DOWN = java.util.Set.of("FF100", "GI60", "XL10");
    /** Customers so far, across batches: 1000 to 9999 and round again (far more than a campaign uses). */
    private static final java.util.concurrent.atomic.AtomicInteger CUSTOMERS = new java.util.concurrent.atomic.AtomicInteger();
    private static final String[][] REJECTED = {
        {"NOPE1", "12345678", ""}, {"ML86", "123456789", ""}, {"FF2180", "12345678", ""},
    };

    /** Customers' mobile numbers so far, across batches: each row with a notify_to gets one of its own. */
    private static final java.util.concurrent.atomic.AtomicInteger PHONES = new java.util.concurrent.atomic.AtomicInteger();
    /** The share of rows of a batch with a notify_to. */
    static final double NOTIFY_SHARE = 0.4;

    /** {@code rows} data rows; about one in eight is meant to be rejected. */
    static CampaignBatch generate(String fileName, String refPrefix, int rows, Random random) {
        return generate(fileName, refPrefix, rows, random, null);
    }

    /**
     * As {@link #generate(String, String, int, Random)}, the same rows for the same {@code random}, and
     * when {@code notify} is given a notify_to column, drawn from {@code notify} alone (so a seed makes the
     * same orders with or without it).
     */
    static CampaignBatch generate(String fileName, String refPrefix, int rows, Random random, Random notify) {
        StringBuilder sb = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone,erp_id"
                + (notify == null ? "" : ",notify_to") + "\n");
        Map<String, String> notifyTo = new LinkedHashMap<>();
        Map<String, Boolean> accepted = new LinkedHashMap<>();
        List<String[]> earlier = new ArrayList<>();
        Map<String, List<String>> refsOfCustomer = new java.util.HashMap<>();
        Map<String, List<String>> earlierOfRepeat = new LinkedHashMap<>();
        for (int i = 1; i <= rows; i++) {
            // every file of some rows has a repeat at least, so that crashes meet rows waiting for the row they repeat
            boolean forceRepeat = i == rows && rows >= 3 && earlierOfRepeat.isEmpty() && !earlier.isEmpty();
            boolean reject = !forceRepeat && random.nextInt(8) == 0;
            boolean repeat = forceRepeat || !reject && !earlier.isEmpty() && random.nextInt(10) == 0;
            String[] p;
            if (repeat) {
                p = earlier.get(random.nextInt(earlier.size()));
            } else if (reject) {
                p = REJECTED[random.nextInt(REJECTED.length)];
            } else {
                String[] template = ACCEPTED[random.nextInt(ACCEPTED.length)];
                String digits = Integer.toString(1000 + CUSTOMERS.getAndIncrement() % 9000);
                p = new String[] {template[0], template[1].replace("####", digits), template[2]};
                if (!MAY_GO_DOWN.contains(p[0])) {
                    earlier.add(p);
                }
            }
            String ref = refPrefix + String.format("%04d", i);
            accepted.put(ref, !reject && !repeat);
            if (!reject) {
                List<String> same = refsOfCustomer.computeIfAbsent(String.join("|", p), k -> new ArrayList<>());
                if (repeat) {
                    earlierOfRepeat.put(ref, List.copyOf(same));
                }
                same.add(ref);
            }
            sb.append(ref).append(',').append(p[0]).append(',').append(p[1]).append(',').append(p[2])
                    .append(",ERP-").append(i);
            if (notify != null) {
                sb.append(',');
                if (notify.nextDouble() < NOTIFY_SHARE) {
                    String digits = String.format("%07d", PHONES.incrementAndGet() % 10_000_000);
                    sb.append("08135").append(digits);
                    notifyTo.put(ref, "+628135" + digits);
                }
            }
            sb.append('\n');
        }
        return new CampaignBatch(fileName, sb.toString(), accepted, rows, earlierOfRepeat, notifyTo);
    }

    String baseName() {
        return fileName.substring(0, fileName.length() - ".csv".length());
    }

    List<String> refs() {
        return new ArrayList<>(acceptedByRef.keySet());
    }
}
