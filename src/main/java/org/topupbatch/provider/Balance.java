package org.topupbatch.provider;

/** The balance record (interface 2.1). Amounts are whole rupiah. */
public record Balance(long balance, String currency, String tier, String name) {
}
