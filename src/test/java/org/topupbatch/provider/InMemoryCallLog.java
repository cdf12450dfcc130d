package org.topupbatch.provider;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.provider.CallLog;
import org.topupbatch.provider.ProviderCall;

/**
 * The journal's call log kept in a list, for the rate budget's own rules; the restart tests use
 * the real journal on H2 and PostgreSQL. {@link #failing} makes every write throw, as a journal
 * database that went away would; {@link #beforeRead} runs before each read of the calls, outside this
 * log's lock, as if something happened while the journal was read (or the read hung on a cut link).
 */
public final class InMemoryCallLog implements CallLog {

    private final List<ProviderCall> calls = new ArrayList<>();
    private AccountLimits limits;
    volatile boolean failing;
    volatile Runnable beforeRead = () -> { };

    @Override
    public synchronized long reserveCall(Instant reservedAt, String operation) {
        failIfAsked();
        long id = calls.size() + 1;
        calls.add(new ProviderCall(id, reservedAt, operation, null, null));
        return id;
    }

    @Override
    public synchronized void completeCall(long callId, Instant answeredAt, int httpStatus) {
        failIfAsked();
        ProviderCall c = calls.get((int) callId - 1);
        calls.set((int) callId - 1, new ProviderCall(c.id(), c.reservedAt(), c.operation(), answeredAt, httpStatus));
    }

    @Override
    public List<ProviderCall> callsSince(Instant since) {
        beforeRead.run();
        synchronized (this) {
            return calls.stream().filter(c -> !c.reservedAt().isBefore(since)).toList();
        }
    }

    @Override
    public synchronized long countCallsSince(Instant since) {
        return callsSince(since).size();
    }

    @Override
    public synchronized void pruneCalls(Instant before) {
        throw new UnsupportedOperationException("not needed here");
    }

    @Override
    public synchronized void rememberLimits(AccountLimits limits) {
        failIfAsked();
        this.limits = limits;
    }

    @Override
    public synchronized Optional<AccountLimits> rememberedLimits() {
        return Optional.ofNullable(limits);
    }

    synchronized List<ProviderCall> calls() {
        return List.copyOf(calls);
    }

    private void failIfAsked() {
        if (failing) {
            throw new IllegalStateException("journal update failed: database closed");
        }
    }
}
