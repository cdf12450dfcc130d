package org.topupbatch.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.topupbatch.settings.SettingsException;

class NodeNameTest {

    @Test
    void a_configured_name_is_used_as_written() {
        assertThat(NodeName.resolve(Map.of("topup.node-name", " topup-a ")::get)).isEqualTo("topup-a");
    }

    @Test
    void without_a_name_the_host_name_is_used_plain_and_short() {
        String name = NodeName.resolve(Map.<String, String>of()::get);
        assertThat(name).matches("[A-Za-z0-9._-]{1,40}");
    }

    @Test
    void a_name_a_log_line_or_the_database_could_not_carry_is_refused_naming_the_setting() {
        assertThatThrownBy(() -> NodeName.resolve(Map.of("topup.node-name", "node a; drop")::get))
                .isInstanceOf(SettingsException.class)
                .hasMessage("topup.node-name 'node a; drop' must be 1 to 40 letters, digits, '.', '_' or '-'"
                        + " (set TOPUP_NODE_NAME, e.g. topup-a)");
        assertThatThrownBy(() -> NodeName.resolve(Map.of("topup.node-name", "n".repeat(41))::get))
                .isInstanceOf(SettingsException.class);
    }
}
