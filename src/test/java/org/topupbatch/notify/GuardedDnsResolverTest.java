package org.topupbatch.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.hc.client5.http.DnsResolver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DNS rebinding, as an attacker would try it: an allowed name whose first answer (the guard's check)
 * is public and whose answer to the connection is 127.0.0.1. The stub resolution stands in for the
 * attacker's DNS server; the connection is Camel's real HTTP producer on {@link CallbackConnections},
 * aimed at a real receiver on 127.0.0.1 that must get nothing.
 */
class GuardedDnsResolverTest {

    private static final String NAME = "erp.example.com";

    private HttpServer receiver;
    private final AtomicInteger received = new AtomicInteger();
    private final AtomicInteger lookups = new AtomicInteger();

    /** The attacker's DNS: the first answer public, every later one loopback. */
    private final DnsResolver rebinding = new DnsResolver() {
        @Override
        public InetAddress[] resolve(String host) throws UnknownHostException {
            if (!host.equals(NAME)) {
                throw new UnknownHostException(host);
            }
            return lookups.getAndIncrement() == 0
                    ? new InetAddress[] {InetAddress.getByName("93.184.215.14")}
                    : new InetAddress[] {InetAddress.getByName("127.0.0.1")};
        }

        @Override
        public String resolveCanonicalHostname(String host) {
            return host;
        }
    };

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/cb", exchange -> {
            received.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.stop(0);
    }

    @Test
    void theGuardsFirstCheckPassingDoesNotLetTheConnectionReachLoopback() throws Exception {
        CallbackGuard guard = new CallbackGuard(List.of(NAME));
        GuardedDnsResolver resolver = new GuardedDnsResolver(guard, rebinding);
        // the check before the try: the name is allowed and its (first) answer is public
        assertNull(guard.addressRefusal(NAME, rebinding.resolve(NAME)));
        // the connection's own lookup: loopback, refused with the guard's one line
        UnknownHostException refused = assertThrows(UnknownHostException.class, () -> resolver.resolve(NAME));
        assertInstanceOf(GuardedDnsResolver.Refused.class, refused);
        assertEquals("callback host erp.example.com resolves to the internal address 127.0.0.1, which is not itself in"
                + " topup.callback.allowed-hosts", refused.getMessage());
    }

    @Test
    void aRealCamelHttpProducerOnTheCallbackComponentNeverConnectsToTheRebindAddress() throws Exception {
        lookups.set(1); // the guard's check already had the public answer: the connection gets loopback
        Throwable failure = send(new CallbackGuard(List.of(NAME)));
        assertEquals(0, received.get(), "the receiver on 127.0.0.1 got no request");
        Throwable cause = failure;
        while (cause != null && !(cause instanceof GuardedDnsResolver.Refused)) {
            cause = cause.getCause();
        }
        assertInstanceOf(GuardedDnsResolver.Refused.class, cause, "refused by the connection's resolver: " + failure);
        assertEquals("callback host erp.example.com resolves to the internal address 127.0.0.1, which is not itself in"
                + " topup.callback.allowed-hosts", cause.getMessage());
    }

    @Test
    void theSameSetUpReachesTheReceiverWhenItsAddressIsItselfAllowed() throws Exception {
        // the control: the stub name does lead to the receiver, so the refusal above is the guard's doing
        lookups.set(1);
        assertNull(send(new CallbackGuard(List.of(NAME, "127.0.0.1"))));
        assertEquals(1, received.get());
    }

    /** One POST through Camel's http producer on the callback component; the failure, or null when delivered. */
    private Throwable send(CallbackGuard guard) throws Exception {
        try (CamelContext camel = new DefaultCamelContext()) {
            camel.addComponent(CallbackConnections.COMPONENT, CallbackConnections.component(guard, rebinding));
            camel.start();
            ProducerTemplate producer = camel.createProducerTemplate();
            String uri = CallbackConnections.COMPONENT + ":http://" + NAME + ":" + receiver.getAddress().getPort()
                    + "/cb?followRedirects=false&connectionRequestTimeout=10000";
            try {
                producer.requestBodyAndHeader(uri, "{}", "CamelHttpMethod", "POST");
                return null;
            } catch (CamelExecutionException e) {
                return e.getCause();
            }
        }
    }
}
