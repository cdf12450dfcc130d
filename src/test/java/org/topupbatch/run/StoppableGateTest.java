package org.topupbatch.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.topupbatch.provider.InMemoryCallLog;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.provider.RequestGate;
import org.topupbatch.testing.Poll;

/** The stop of the provider's door, on a real rate budget of one request a minute. */
class StoppableGateTest {

    private final RateBudget budget = new RateBudget(Clock.systemUTC(), new InMemoryCallLog(), Duration.ofSeconds(40),
            RateBudget.Waiter.REAL, 1, 1000);
    private final StoppableGate gate = new StoppableGate(budget);

    @Test
    void a_request_on_the_wire_when_the_stop_comes_finishes() throws Exception {
        RequestGate.Ticket onWire = gate.enter("create-order");
        assertThat(gate.stop()).isEqualTo(1);
        onWire.completed(200);
        assertThat(gate.inFlight()).isZero();
    }

    @Test
    void a_worker_waiting_for_a_slot_gives_up_at_the_stop_without_an_interrupt_left_set() throws Exception {
        gate.enter("create-order").completed(200); // the minute's one request is spent
        CompletableFuture<String> waiter = new CompletableFuture<>();
        Thread worker = new Thread(() -> {
            try {
                gate.enter("create-order");
                waiter.complete("sent");
            } catch (ProviderException e) {
                waiter.complete(e.code() + (Thread.currentThread().isInterrupted() ? " and interrupted" : ""));
            } catch (InterruptedException e) {
                waiter.complete("InterruptedException");
            }
        });
        worker.start();
        Poll.until("the worker waits in the gate", Duration.ofSeconds(30),
                () -> worker.getState() == Thread.State.TIMED_WAITING || worker.getState() == Thread.State.WAITING);
        assertThat(gate.stop()).as("nothing on the wire").isZero();
        assertThat(waiter.get(30, TimeUnit.SECONDS)).isEqualTo(ProviderException.INTERRUPTED);
    }

    /**
     * The budget journals a reservation inside enter(): a stop that interrupted the thread then
     * would make H2 close its file (ClosedByInterruptException) in the middle of a batch.
     */
    @Test
    void a_worker_writing_its_reservation_when_the_stop_comes_is_not_interrupted() throws Exception {
        java.util.concurrent.CountDownLatch writing = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
        CompletableFuture<Boolean> interruptedWhileWriting = new CompletableFuture<>();
        RequestGate journaling = operation -> {
            writing.countDown();
            stopped.await(30, TimeUnit.SECONDS); // the journal write takes this long
            interruptedWhileWriting.complete(Thread.currentThread().isInterrupted());
            return status -> { };
        };
        StoppableGate slowGate = new StoppableGate(journaling);
        Thread worker = new Thread(() -> {
            try {
                slowGate.enter("create-order");
            } catch (Exception e) {
                // refused, as the run is stopping
            }
        });
        worker.start();
        assertThat(writing.await(30, TimeUnit.SECONDS)).isTrue();
        slowGate.stop();
        stopped.countDown();
        assertThat(interruptedWhileWriting.get(30, TimeUnit.SECONDS)).as("interrupted while writing the journal").isFalse();
        worker.join(30_000);
    }

    @Test
    void after_the_stop_no_request_starts() {
        gate.stop();
        assertThatThrownBy(() -> gate.enter("check-balance")).isInstanceOf(ProviderException.class)
                .hasMessageContaining("not sent: the run is stopping");
        assertThat(budget.inWindow()).isZero();
    }

    @Test
    void an_interrupt_that_is_not_the_stop_stays_the_callers() throws Exception {
        gate.enter("create-order").completed(200);
        CompletableFuture<String> waiter = new CompletableFuture<>();
        Thread worker = new Thread(() -> {
            try {
                gate.enter("create-order");
                waiter.complete("sent");
            } catch (InterruptedException e) {
                waiter.complete("InterruptedException");
            } catch (ProviderException e) {
                waiter.complete(e.code());
            }
        });
        worker.start();
        Poll.until("the worker waits in the gate", Duration.ofSeconds(30),
                () -> worker.getState() == Thread.State.TIMED_WAITING || worker.getState() == Thread.State.WAITING);
        worker.interrupt();
        assertThat(waiter.get(30, TimeUnit.SECONDS)).isEqualTo("InterruptedException");
    }
}
