package org.topupbatch.provider;

import java.util.Map;

/**
 * What Digiflazz's response codes ({@code rc}) mean to us, from its buyer API's response-code table
 * (developer.digiflazz.com/api/buyer/response-code), whose last column says whether a transaction
 * was made. A code with no transaction made is a refusal: nothing exists under the ref_id, nothing was
 * charged. A failure with a transaction made is a failed order (final). See docs/digiflazz.md.
 */
final class DigiflazzCodes {

    static final String SUCCESS = "00";
    static final String PENDING = "03";

    /**
     * Codes documented as "no transaction made", each as the code the rest of the product acts on:
     * the credential codes stop submission, the product codes hold the product's rows, 49 means
     * the ref_id is taken already (look it up, never call it failed).
     */
    private static final Map<String, String> REFUSALS = Map.ofEntries(
            Map.entry("40", "PAYLOAD_ERROR"),
            Map.entry("41", ProviderError.INVALID_SIGNATURE.name()),
            Map.entry("42", ProviderError.INVALID_API_KEY.name()), // the username is not the account's
            Map.entry("43", "PRODUCT_INACTIVE"), // SKU not found or not active
            Map.entry("44", ProviderError.INSUFFICIENT_BALANCE.name()),
            Map.entry("45", ProviderError.IP_NOT_WHITELISTED.name()),
            Map.entry("47", "ORDER_AT_ANOTHER_BUYER"),
            Map.entry("49", ProviderError.DUPLICATE_REF_ID.name()),
            Map.entry("56", "SELLER_BALANCE_LIMIT"),
            Map.entry("61", ProviderError.INSUFFICIENT_BALANCE.name())); // never deposited: no money at all

    private DigiflazzCodes() {
    }

    /** The code a refusal with this rc is given, or null when the rc is not a documented refusal. */
    static String refusal(String rc) {
        return rc == null ? null : REFUSALS.get(rc.trim());
    }
}
