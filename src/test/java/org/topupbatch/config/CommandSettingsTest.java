package org.topupbatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.topupbatch.settings.SettingsException;

/** A command's settings are read when first asked, once; a refused read is said again, not kept. */
class CommandSettingsTest {

    private final Map<String, String> values = new HashMap<>();
    private final AtomicInteger reads = new AtomicInteger();
    /** Counts whole reads by one key every read looks up. */
    private final Function<String, String> lookup = key -> {
        if (key.equals("topup.pending-timeout")) {
            reads.incrementAndGet();
        }
        return values.get(key);
    };

    @Test
    void nothing_is_read_until_asked_then_once_for_every_group() {
        CommandSettings settings = new CommandSettings(lookup);
        assertThat(reads).hasValue(0);
        settings.read();
        int once = reads.get();
        assertThat(once).isPositive();
        settings.folders();
        settings.journal();
        settings.track();
        settings.provider();
        settings.accounts();
        assertThat(reads).hasValue(once);
        assertThat(settings.track()).isSameAs(settings.track());
    }

    @Test
    void a_bad_setting_is_refused_each_time_asked_and_read_once_mended() {
        values.put("topup.pending-timeout", "soon");
        CommandSettings settings = new CommandSettings(lookup);
        assertThatThrownBy(settings::read).isInstanceOf(SettingsException.class).hasMessageContaining("topup.pending-timeout");
        assertThatThrownBy(settings::track).isInstanceOf(SettingsException.class).hasMessageContaining("topup.pending-timeout");
        values.put("topup.pending-timeout", "20m");
        assertThat(settings.track().pendingTimeout()).hasMinutes(20);
    }
}
