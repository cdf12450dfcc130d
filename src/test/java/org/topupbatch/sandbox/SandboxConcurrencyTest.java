package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Parallel clients: one order per ref_id, the balance moved exactly once per order. */
class SandboxConcurrencyTest {

    @Test
    void racingSendsOfOneRefIdCreateOneOrder() throws Exception {
        try (SandboxProvider sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(4L)
                .setLatency(DurationRange.parse("0-20ms")), 0)) {
            SandboxTestClient client = new SandboxTestClient(sandbox.baseUrl());
            long before = sandbox.balance();
            ExecutorService pool = Executors.newFixedThreadPool(32);
            try {
                List<Callable<Integer>> sends = new ArrayList<>();
                for (int i = 0; i < 32; i++) {
                    sends.add(() -> client.createOrder("RACE-1", "TSEL10", "081234567890", null).status());
                    int n = i;
                    sends.add(() -> client.createOrder("PAR-" + n, "TSEL10", "081234567890", null).status());
                }
                List<Integer> statuses = new ArrayList<>();
                for (Future<Integer> f : pool.invokeAll(sends)) {
                    statuses.add(f.get());
                }
                assertThat(statuses).filteredOn(s -> s == 409).hasSize(31);
                assertThat(statuses).filteredOn(s -> s == 200).hasSize(33);
            } finally {
                pool.shutdownNow();
            }
            assertThat(sandbox.ledger()).hasSize(33);
            long price = sandbox.ledger().get(0).price();
            assertThat(sandbox.balance()).isEqualTo(before - 33 * price);
            // every order's balance_before/after chain is consistent: each deduction seen exactly once
            assertThat(sandbox.ledger()).extracting(LedgerEntry::balanceAfter).doesNotHaveDuplicates();
        }
    }
}
