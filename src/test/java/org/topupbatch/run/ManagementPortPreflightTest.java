package org.topupbatch.run;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** A dashboard port already taken stops the start with one line naming the setting (fail closed). */
class ManagementPortPreflightTest {

    @Test
    void a_taken_management_port_is_refused_naming_the_setting() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> StartupPreflight.managementPortFree("127.0.0.1", port))
                    .isInstanceOf(StartupRefusal.class)
                    .hasMessage("topup.management.port " + port + " is already in use (another process listens there;"
                            + " set TOPUP_MANAGEMENT_PORT or 0 to turn the dashboard off)");
        }
    }

    @Test
    void an_unknown_management_host_is_refused_naming_the_setting() {
        assertThatThrownBy(() -> StartupPreflight.managementPortFree("no-such-host.invalid", 0))
                .isInstanceOf(StartupRefusal.class).hasMessageStartingWith("topup.management.host 'no-such-host.invalid'");
    }
}
