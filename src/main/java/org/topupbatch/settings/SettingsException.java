package org.topupbatch.settings;

/** A setting with a bad value; the message is the one line the operator sees. */
public class SettingsException extends RuntimeException {
    public SettingsException(String message) {
        super(message);
    }
}
