package org.topupbatch.settings;

import java.util.function.Function;

/**
 * One {@code topup.*} key, declared once: its name, its default as an operator would write it, its
 * one-line description and the check that turns a written value into what the product uses. The
 * groups ({@link ProviderSettings}, {@link TrackSettings}...) declare their keys with it, the way
 * camel-main's {@code *ConfigurationProperties} classes hold their options; docs/settings.md and
 * application.properties are checked against these declarations (SettingsReferenceTest).
 *
 * @param key         e.g. {@code topup.pending-timeout}
 * @param defaultText the default as written in application.properties ({@code 30m}); null: unset
 * @param description what the key sets, in one line (docs/settings.md's meaning starts with it)
 * @param check       reads a written value; throws {@link SettingsException} naming the key
 */
public record Setting<T>(String key, String defaultText, String description, Check<T> check) {

    /** Turns a written value (trimmed, never blank) into the value used, or refuses it in one line. */
    @FunctionalInterface
    public interface Check<T> {
        T read(String key, String written);
    }

    public static <T> Setting<T> of(String key, String defaultText, String description, Check<T> check) {
        return new Setting<>(key, defaultText, description, check);
    }

    /** The value set (blank counts as unset), else the default, checked; null when neither is there. */
    public T read(Function<String, String> lookup) {
        String written = written(lookup);
        String value = written != null ? written : defaultText;
        return value == null ? null : check.read(key, value);
    }

    /** The value as set, trimmed; null when unset or blank. */
    public String written(Function<String, String> lookup) {
        String v = lookup.apply(key);
        return v == null || v.isBlank() ? null : v.trim();
    }
}
