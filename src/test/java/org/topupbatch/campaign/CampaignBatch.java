package org.topupbatch.campaign;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One seeded input file of the campaign: instant and async products, orders that fail at the
 * provider (customer numbers ending 0000), and rows the product must reject before spending money.
 */
record CampaignBatch(String fileName, String content, Map<String, Boolean> acceptedByRef, int rows) {

    private static final String[][] ACCEPTED = {
        {"FF100", "12345678", ""}, {"ML86", "123456789", "2345"}, {"TSEL10", "081234567890", ""},
        {"GI60", "812345678", "asia"}, {"STEAM45K", "gamer@example.com", ""}, {"PUBG60", "5123456789", ""},
        {"XL10", "081712345678", ""}, {"GP20K", "buyer@example.com", ""}, {"XL10", "081700000000", ""},
        {"GI60", "812340000", "europe"}, {"TRI10", "089612340000", ""},
    };
    private static final String[][] REJECTED = {
        {"NOPE1", "12345678", ""}, {"ML86", "123456789", ""}, {"FF2180", "12345678", ""},
    };

    /** {@code rows} data rows; about one in eight is meant to be rejected. */
    static CampaignBatch generate(String fileName, String refPrefix, int rows, Random random) {
        StringBuilder sb = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone,erp_id\n");
        Map<String, Boolean> accepted = new LinkedHashMap<>();
        for (int i = 1; i <= rows; i++) {
            boolean reject = random.nextInt(8) == 0;
            String[] p = reject ? REJECTED[random.nextInt(REJECTED.length)] : ACCEPTED[random.nextInt(ACCEPTED.length)];
            String ref = refPrefix + String.format("%04d", i);
            accepted.put(ref, !reject);
            sb.append(ref).append(',').append(p[0]).append(',').append(p[1]).append(',').append(p[2])
                    .append(",ERP-").append(i).append('\n');
        }
        return new CampaignBatch(fileName, sb.toString(), accepted, rows);
    }

    String baseName() {
        return fileName.substring(0, fileName.length() - ".csv".length());
    }

    List<String> refs() {
        return new ArrayList<>(acceptedByRef.keySet());
    }
}
