package org.topupbatch.settings;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The voucher to the customer (docs/customer-messages.md): the Camel endpoint of each channel (an
 * e-mail address gets camel-mail's {@code topup.customer.email-uri}; a mobile number gets WhatsApp,
 * {@code topup.customer.whatsapp-uri}, or an SMS gateway, {@code topup.customer.sms-uri}, as
 * {@code topup.customer.phone-channel} says), the reseller's name the message is signed with, and
 * the reseller's own template file. A channel left unset sends nothing. The URIs hold secrets (the
 * WhatsApp token, the SMTP password): shown only masked.
 */
public record CustomerSettings(String emailUri, String whatsappUri, String smsUri, PhoneChannel phoneChannel,
                               String resellerName, Path template) {

    /** Which endpoint a mobile number's message goes to. */
    public enum PhoneChannel { WHATSAPP, SMS }

    static final Setting<String> EMAIL_URI = Setting.of("topup.customer.email-uri", null,
            "camel-mail endpoint (smtp:// or smtps://, with from=) an e-mail notify_to gets the voucher through",
            (key, v) -> scheme(key, v, List.of("smtp", "smtps"), "smtps://mail.example.com:465?username=...&password=...&from=toko@example.com"));
    static final Setting<String> WHATSAPP_URI = Setting.of("topup.customer.whatsapp-uri", null,
            "Camel WhatsApp endpoint (whatsapp:<phone number id>?authorizationToken=...) a mobile notify_to gets the voucher through",
            (key, v) -> scheme(key, v, List.of("whatsapp"), "whatsapp:123456789?authorizationToken=..."));
    static final Setting<String> SMS_URI = Setting.of("topup.customer.sms-uri", null,
            "an SMS gateway's http(s) URL a mobile notify_to gets the voucher through (a POST of JSON to, text, event_id)",
            (key, v) -> scheme(key, v, List.of("http", "https"), "https://sms.example.com/send?apiKey=..."));
    static final Setting<PhoneChannel> PHONE_CHANNEL = Setting.of("topup.customer.phone-channel", "whatsapp",
            "whatsapp or sms: the channel of a mobile notify_to", CustomerSettings::phoneChannel);
    static final Setting<String> RESELLER_NAME = Setting.of("topup.customer.reseller-name", null,
            "the reseller's name a customer's message is signed with ({reseller})", SettingChecks::text);
    static final Setting<Path> TEMPLATE = Setting.of("topup.customer.template", null,
            "a text file with the customer's message (placeholders {product} {serial} {reseller} {ref_id} {customer_no});"
                    + " unset: the Indonesian text in the jar", (key, v) -> Path.of(v));

    static final List<Setting<?>> DECLARED = List.of(EMAIL_URI, WHATSAPP_URI, SMS_URI, PHONE_CHANNEL, RESELLER_NAME, TEMPLATE);

    /** Reads the settings; a channel needs the reseller's name to sign with. */
    static CustomerSettings load(Function<String, String> lookup) {
        CustomerSettings read = new CustomerSettings(EMAIL_URI.read(lookup), WHATSAPP_URI.read(lookup), SMS_URI.read(lookup),
                PHONE_CHANNEL.read(lookup), RESELLER_NAME.read(lookup), TEMPLATE.read(lookup));
        if ((read.emailUri != null || read.phoneUri() != null) && read.resellerName == null) {
            throw new SettingsException("a customer channel (topup.customer.*-uri) is set but topup.customer.reseller-name"
                    + " is not: set TOPUP_CUSTOMER_RESELLER_NAME to the name your customers know you by");
        }
        return read;
    }

    /** The endpoint a mobile number's message goes to, or null when that channel is not set. */
    public String phoneUri() {
        return phoneChannel == PhoneChannel.SMS ? smsUri : whatsappUri;
    }

    /** Whether any customer can get a message. */
    public boolean anyChannel() {
        return emailUri != null || phoneUri() != null;
    }

    private static String scheme(String key, String v, List<String> schemes, String example) {
        String scheme = v.contains(":") ? v.substring(0, v.indexOf(':')).toLowerCase(Locale.ROOT) : "";
        if (!schemes.contains(scheme)) {
            throw new SettingsException(key + ": '" + Settings.shownUri(v) + "' is not a " + String.join(" or ", schemes)
                    + " endpoint such as " + example);
        }
        return v;
    }

    private static PhoneChannel phoneChannel(String key, String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "whatsapp" -> PhoneChannel.WHATSAPP;
            case "sms" -> PhoneChannel.SMS;
            default -> throw new SettingsException(key + ": '" + v + "' must be whatsapp or sms");
        };
    }

    @Override
    public String toString() {
        return "CustomerSettings[email=" + shown(emailUri) + ", whatsapp=" + shown(whatsappUri) + ", sms=" + shown(smsUri)
                + ", phoneChannel=" + phoneChannel + ", resellerName=" + resellerName + ", template=" + template + "]";
    }

    private static String shown(String uri) {
        return uri == null ? null : Settings.shownUri(uri);
    }
}
