package org.topupbatch.sandbox;

import java.util.Random;

/** Serial numbers of delivered items: a voucher code for vouchers, a 20-digit reference otherwise. */
final class SerialNumbers {

    // no 0/O, 1/I: voucher codes are typed in by people
    private static final String CODE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

    private SerialNumbers() {
    }

    static String next(SandboxProduct product, Random random) {
        StringBuilder sb = new StringBuilder();
        if (product.category().equals("voucher")) {
            for (int group = 0; group < 4; group++) {
                if (group > 0) {
                    sb.append('-');
                }
                for (int i = 0; i < 4; i++) {
                    sb.append(CODE_CHARS.charAt(random.nextInt(CODE_CHARS.length())));
                }
            }
        } else {
            sb.append(1 + random.nextInt(9));
            for (int i = 1; i < 20; i++) {
                sb.append(random.nextInt(10));
            }
        }
        return sb.toString();
    }
}
