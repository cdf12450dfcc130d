package org.topupbatch.provider;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * How one provider's API spells the operations: where each one is posted, what its signed body
 * holds, and what its answers mean. The rest of the product speaks only the typed operations of
 * {@link ProviderClient}; the rate budget, the journal and the retry policy are the same for every
 * dialect. {@link #TOPUP} is the default; {@link #DIGIFLAZZ} is Digiflazz's buyer API (docs/digiflazz.md).
 */
public interface Dialect {

    Dialect TOPUP = new TopupDialect();
    Dialect DIGIFLAZZ = new DigiflazzDialect();

    /** The name in settings ({@code topup.dialect}). */
    String name();

    /** Whether the provider has this operation at all; one it has not is never sent. */
    boolean supports(String operation);

    /** The path of an operation below the base URL, starting with a slash. */
    String path(String operation);

    /** The request body: the request's fields in the dialect's names, with the credentials and the sign. */
    Map<String, Object> body(ProviderRequest request, Signer signer);

    /** The operation's typed answer, or the {@link ProviderException} the answer means. */
    Object read(String operation, String refId, HttpProviderClient.HttpAnswer answer);

    /**
     * True when the documented way to learn an order's status is to send the same order again
     * under the same ref_id (the provider answers the existing order, never a second one).
     */
    default boolean statusByResending() {
        return false;
    }

    /**
     * How long after its first request an order may still be sent again under its ref_id; after
     * that the provider would take the same ref_id as a new order. Empty: no limit is documented.
     */
    default Optional<Duration> resendWindow() {
        return Optional.empty();
    }

    /** The dialect of a setting value (letter case ignored), or empty. */
    static Optional<Dialect> named(String name) {
        if (name == null) {
            return Optional.empty();
        }
        for (Dialect d : new Dialect[] {TOPUP, DIGIFLAZZ}) {
            if (d.name().equalsIgnoreCase(name.trim())) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }
}
