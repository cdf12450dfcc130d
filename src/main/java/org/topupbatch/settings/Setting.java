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
 * @param required    unset is refused ("KEY is not set (VARIABLE)") instead of read as null
 */
public record Setting<T>(String key, String defaultText, String description, Check<T> check, boolean required) {

    /** Stands for an account's name in the keys of {@code topup.providers}' accounts (docs/settings.md writes it so). */
    static final String ACCOUNT = "NAME";
    private static final String ACCOUNT_KEYS = "topup.provider." + ACCOUNT + ".";

    /** Turns a written value (trimmed, never blank) into the value used, or refuses it in one line. */
    @FunctionalInterface
    public interface Check<T> {
        T read(String key, String written);
    }

    public static <T> Setting<T> of(String key, String defaultText, String description, Check<T> check) {
        return new Setting<>(key, defaultText, description, check, false);
    }

    /**
     * This key's twin for each named account: {@code topup.dialect} gives {@code topup.provider.NAME.dialect},
     * with this key's default and check, so that the one account and the named ones cannot read a value
     * differently. {@link #forAccount} makes an account's own key of it.
     */
    Setting<T> perAccount(String description) {
        return perAccount(ACCOUNT_KEYS + key.substring("topup.".length()), description);
    }

    /** As {@link #perAccount(String)}, for an account's key not named after this one ({@code NAME.webhook-secret}). */
    Setting<T> perAccount(String accountKey, String description) {
        if (!accountKey.startsWith(ACCOUNT_KEYS)) {
            throw new IllegalArgumentException(accountKey + " is not a key of " + ACCOUNT_KEYS + "*");
        }
        return new Setting<>(accountKey, defaultText, description, check, required);
    }

    /** The same setting, refused when unset (a named account's address and credentials). */
    Setting<T> mustBeSet() {
        return new Setting<>(key, defaultText, description, check, true);
    }

    /** One account's key of a per-account setting: {@code topup.provider.NAME.dialect} for {@code main}. */
    Setting<T> forAccount(String name) {
        if (!key.startsWith(ACCOUNT_KEYS)) {
            throw new IllegalStateException(key + " is not a per-account setting");
        }
        return new Setting<>("topup.provider." + name + "." + key.substring(ACCOUNT_KEYS.length()), defaultText,
                description, check, required);
    }

    /**
     * The value set (blank counts as unset), else the default, checked; null when neither is there, or,
     * when the setting is required, a refusal naming the key and its environment variable.
     */
    public T read(Function<String, String> lookup) {
        String written = written(lookup);
        String value = written != null ? written : defaultText;
        if (value == null && required) {
            throw new SettingsException(key + " is not set (" + SettingsLookup.environmentName(key) + ")");
        }
        return value == null ? null : check.read(key, value);
    }

    /** The value as set, trimmed; null when unset or blank. */
    public String written(Function<String, String> lookup) {
        String v = lookup.apply(key);
        return v == null || v.isBlank() ? null : v.trim();
    }
}
