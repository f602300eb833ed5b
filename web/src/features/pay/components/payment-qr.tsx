import { QRCodeSVG } from 'qrcode.react';

/**
 * An EIP-681 request as a QR code for a wallet or exchange app to scan. The white frame
 * keeps the quiet zone scanners need when the page is dark; phone-pay and exchange-pay
 * draw theirs with it so both codes scan alike.
 */
export function PaymentQr({ uri, label, testId }: { uri: string; label: string; testId?: string }) {
  return (
    <div className="rounded-md bg-white p-2">
      <QRCodeSVG value={uri} size={168} level="M" role="img" aria-label={label} data-testid={testId} />
    </div>
  );
}
