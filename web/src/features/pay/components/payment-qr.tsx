import { lazy, Suspense } from 'react';

// The code's module (qrcode.react) loads once the panel that shows the code is drawn, and
// draws it in a task of its own: making the code is the longest piece of work on the pay
// page after its first paint, which a phone would otherwise do in one go with the panel.
const QRCodeSVG = lazy(async () => ({ default: (await import('qrcode.react')).QRCodeSVG }));

/** The code's size in CSS pixels; its place keeps it while the code is made (no layout shift). */
const SIZE = 168;

/**
 * An EIP-681 request as a QR code for a wallet or exchange app to scan. The white frame
 * keeps the quiet zone scanners need when the page is dark; phone-pay and exchange-pay
 * draw theirs with it so both codes scan alike.
 */
export function PaymentQr({ uri, label, testId }: { uri: string; label: string; testId?: string }) {
  return (
    <div className="rounded-md bg-white p-2">
      <Suspense fallback={<div style={{ width: SIZE, height: SIZE }} />}>
        <QRCodeSVG value={uri} size={SIZE} level="M" role="img" aria-label={label} data-testid={testId} />
      </Suspense>
    </div>
  );
}
