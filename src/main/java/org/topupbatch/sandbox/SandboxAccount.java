package org.topupbatch.sandbox;

import java.time.Instant;

/** The demo reseller account: fixed profile facts and the live deposit balance. */
final class SandboxAccount {

    static final String ID = "RS-100427";
    static final String NAME = "Toko Maju Jaya Games";
    static final String EMAIL = "ops@majujaya-games.example";
    static final String PHONE = "081234567890";
    static final Instant JOINED_AT = Instant.parse("2024-03-15T08:30:00Z");

    private long balance;

    SandboxAccount(long balance) {
        this.balance = balance;
    }

    synchronized long balance() {
        return balance;
    }

    synchronized void setBalance(long balance) {
        this.balance = balance;
    }

    /** Deducts the price and returns the balance before, or throws INSUFFICIENT_BALANCE. */
    synchronized long debit(long price) {
        if (balance < price) {
            throw new SandboxException(402, "INSUFFICIENT_BALANCE",
                    "insufficient balance: " + balance + " IDR does not cover " + price + " IDR");
        }
        long before = balance;
        balance -= price;
        return before;
    }

    synchronized void refund(long price) {
        balance += price;
    }

    /** Adds a deposit and returns the balance before; INVALID_REQUEST when the sum would not fit. */
    synchronized long credit(long amount) {
        long before = balance;
        try {
            balance = Math.addExact(balance, amount);
        } catch (ArithmeticException e) {
            throw SandboxException.invalidRequest("amount " + amount + " would overflow the balance of " + before + " IDR");
        }
        return before;
    }
}
