package org.topupbatch.sandbox;

import java.time.Instant;

/**
 * Money paid into the account (the act {@code POST /sandbox/deposit}); not an order: it is in no ledger
 * or order history, only in the balance and in {@link SandboxProvider#deposits()}.
 *
 * @param amount        IDR added, above 0
 * @param at            when it was made, on the sandbox's clock
 * @param balanceBefore the live balance just before
 * @param balanceAfter  the live balance just after ({@code balanceBefore + amount})
 */
public record Deposit(long amount, Instant at, long balanceBefore, long balanceAfter) {
}
