package org.topupbatch.provider;

import java.util.Locale;
import java.util.Optional;

/** An order's status at the provider. */
public enum OrderStatus {
    PENDING, SUCCESS, FAILED;

    /** The wire word: pending, success, failed. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean isFinal() {
        return this != PENDING;
    }

    /**
     * Liberal reading of a provider's status word: case and spaces do not matter, and the
     * in-between words some providers use (processing, in_progress, ...) mean pending.
     */
    public static Optional<OrderStatus> parse(String word) {
        if (word == null) {
            return Optional.empty();
        }
        switch (word.trim().toLowerCase(Locale.ROOT)) {
            case "success": case "successful": case "succeeded": case "sukses": case "completed": case "done":
                return Optional.of(SUCCESS);
            case "failed": case "fail": case "failure": case "gagal": case "cancelled": case "canceled": case "refunded":
                return Optional.of(FAILED);
            case "pending": case "processing": case "in_progress": case "in progress": case "queued": case "proses":
                return Optional.of(PENDING);
            default:
                return Optional.empty();
        }
    }
}
