package org.topupbatch.intake;

import java.util.List;

/**
 * What the customer rules say about a row's customer_no and customer_no_zone: rejected for
 * {@code reason} (null when the row may be sent), and {@code warnings} about values that are sent
 * anyway because only the provider can tell whether they are right.
 */
public record CustomerCheck(String reason, List<String> warnings) {

    public CustomerCheck {
        warnings = List.copyOf(warnings);
    }

    public static CustomerCheck reject(String reason) {
        return new CustomerCheck(reason, List.of());
    }

    public static CustomerCheck send(List<String> warnings) {
        return new CustomerCheck(null, warnings);
    }

    public boolean rejected() {
        return reason != null;
    }
}
