package org.topupbatch.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Which addresses a callback host may lead to (docs/callbacks.md#allowed-hosts). */
class CallbackGuardTest {

    private final CallbackGuard guard = new CallbackGuard(List.of("erp.example.com", "10.0.0.9"));

    @ParameterizedTest
    @ValueSource(strings = {
            "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "224.0.0.1", "0.0.0.0",
            "0.1.2.3",                       // 0.0.0.0/8 "this network"
            "100.64.0.1", "100.127.255.254", // 100.64.0.0/10 CGNAT
            "192.0.0.8",                     // 192.0.0.0/24 IETF protocol assignments
            "198.18.0.1", "198.19.255.254",  // 198.18.0.0/15 benchmarking
            "::1", "::", "fe80::1", "fd00::1", "fc00::1",
            "fec0::1", "feff::1",            // fec0::/10 deprecated site-local
            "::127.0.0.1", "::10.0.0.1",     // IPv4-compatible
            "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", // NAT64 to 127.0.0.1, 169.254.169.254
    })
    void internalAddressesAreRefused(String literal) throws UnknownHostException {
        InetAddress a = InetAddress.getByName(literal);
        assertTrue(CallbackGuard.internal(a), literal + " counts as internal");
        assertEquals("callback host h.example resolves to the internal address " + a.getHostAddress()
                + ", which is not itself in topup.callback.allowed-hosts", guard.addressRefusal("h.example", new InetAddress[] {a}));
    }

    @Test
    void ipv4MappedFormsAreJudgedByTheirIpv4() throws UnknownHostException {
        // Java turns ::ffff:a.b.c.d into an Inet4Address when parsing; a resolver may hand the 16 bytes over as they are
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = 127;
        mapped[15] = 1;
        assertTrue(CallbackGuard.internal(java.net.Inet6Address.getByAddress(null, mapped, -1)));
        mapped[12] = 8;
        mapped[13] = 8;
        mapped[14] = 8;
        mapped[15] = 8;
        assertFalse(CallbackGuard.internal(java.net.Inet6Address.getByAddress(null, mapped, -1)));
        assertTrue(CallbackGuard.internal(InetAddress.getByName("::ffff:169.254.169.254")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "100.63.255.255", "100.128.0.1", "192.0.1.1", "198.17.0.1", "198.20.0.1",
            "2001:4860:4860::8888", "64:ff9b::808:808", "64:ff9c::7f00:1", "fe7f::1", "1.1.1.1"})
    void publicAddressesPass(String literal) throws UnknownHostException {
        InetAddress a = InetAddress.getByName(literal);
        assertFalse(CallbackGuard.internal(a), literal + " counts as public");
        assertNull(guard.addressRefusal("h.example", new InetAddress[] {a}));
    }

    @Test
    void anInternalAddressThatIsItselfAllowedPasses() throws UnknownHostException {
        assertNull(guard.addressRefusal("erp.example.com", new InetAddress[] {InetAddress.getByName("10.0.0.9")}));
    }

    @Test
    void oneInternalAddressAmongPublicOnesRefusesTheHost() throws UnknownHostException {
        InetAddress[] answer = {InetAddress.getByName("8.8.8.8"), InetAddress.getByName("127.0.0.1")};
        assertTrue(guard.addressRefusal("erp.example.com", answer).contains("127.0.0.1"));
    }
}
