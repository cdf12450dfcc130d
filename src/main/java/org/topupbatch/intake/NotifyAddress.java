package org.topupbatch.intake;

import java.util.regex.Pattern;

/**
 * The optional {@code notify_to} column (docs/customer-messages.md): where the customer gets the
 * voucher. A mobile number in any form {@link MobileNumber} reads for {@code customer_no} (kept in the
 * international {@code +628…} form, the one WhatsApp and SMS gateways take) or an e-mail address (kept
 * as written). Only what is certainly neither is refused: the mail server has the last word on an
 * address, so the check here is the shape {@code local@domain.tld} and nothing finer.
 */
public final class NotifyAddress {

    public static final String COLUMN = "notify_to";

    /** One {@code @}, something on each side, a dot in the domain, no spaces; the RFC's length limit. */
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s.]+(\\.[^@\\s.]+)+");
    private static final int MAX_EMAIL = 254;

    private NotifyAddress() {
    }

    /** The address as it is kept, or null when {@code written} is neither a mobile number nor an e-mail address. */
    public static String normalized(String written) {
        if (written.indexOf('@') >= 0) {
            return written.length() <= MAX_EMAIL && EMAIL.matcher(written).matches() ? written : null;
        }
        return MobileNumber.international(written);
    }

    /** The row check's reason for a value that is neither. */
    static String reason(String written) {
        return COLUMN + " must be a mobile number (08…, 628… or +628…) or an e-mail address (found '"
                + org.topupbatch.text.OneLine.of(written, 100) + "')";
    }
}
