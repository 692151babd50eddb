/** Everything printed on a delivery contract's PDF (read by ContractPdfs, drawn here). */
export interface ContractPdfData {
  contractId: string;
  reference: string;
  status: string;
  aggregator: { name: string; organization: string | null; phone: string | null };
  grower: { name: string; reference: string | null; phone: string | null };
  cooperative: string | null;
  plot: { name: string; productType: string | null; areaSown: string | null };
  quantityKg: number;
  amount: number;
  deliveryDate: string;
  delivery: {
    quantityKg: number;
    deliveredOn: string | null;
    amount: number | null;
    recovered: number | null;
    growerNet: number | null;
  } | null;
  createdAt: string;
  /** The event that created the contract: the first of its stream in the ledger. */
  ledger: { type: string; position: number; hash: string; recordedAt: string } | null;
}

/** The contract statuses as the web shows them (contracts.json `status`). */
export const STATUS_LABELS: Record<string, string> = {
  PENDING: 'En attente',
  CONFIRMED: 'Prêt pour la livraison',
  DELIVERED: 'Livraison disponible',
  COMPLETED: 'Terminé',
  OUTTIME: 'Hors délais',
  CANCELED: 'Annulé',
};

const PRODUCT_LABELS: Record<string, string> = {
  CAYENNE_LISSE: 'Cayenne lisse',
  PAIN_DE_SUCRE: 'Pain de sucre',
};

/** Integer F CFA grouped by thousands with spaces: 1250000 → '1 250 000 F CFA'. */
export function formatFcfa(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const digits = String(Math.abs(Math.trunc(amount)));
  return `${sign}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} F CFA`;
}

/** Integer kg as tonnes with a French decimal comma: 2500 → '2,5 t'. */
export function formatTonnes(kg: number): string {
  const whole = Math.trunc(kg / 1000);
  const rest = String(kg % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return `${whole}${rest ? `,${rest}` : ''} t`;
}

/**
 * Price per tonne = amount × 1000 / kg, rounded half up in integer arithmetic (BigInt: the
 * product may pass 2^53); F CFA are integers, so the printed price is the rounded one.
 */
export function pricePerTonne(amount: number, quantityKg: number): number {
  if (quantityKg <= 0) return 0;
  const num = BigInt(amount) * 1000n;
  const den = BigInt(quantityKg);
  return Number((num * 2n + den) / (den * 2n));
}

/** 'YYYY-MM-DD' → 'DD/MM/YYYY'. */
export function formatDay(day: string): string {
  const [y, m, d] = day.slice(0, 10).split('-');
  return y && m && d ? `${d}/${m}/${y}` : day;
}

/** An instant as 'DD/MM/YYYY HH:MM' in Porto-Novo (UTC+1, no daylight saving). */
export function formatInstant(iso: string): string {
  const t = new Date(new Date(iso).getTime() + 60 * 60 * 1000).toISOString();
  return `${formatDay(t.slice(0, 10))} ${t.slice(11, 16)}`;
}

/**
 * The contract's PDF (A4, built-in Helvetica/Courier: no font files to ship). `compress: false`
 * leaves the content streams readable (tests look for the reference and the hash).
 */
export async function renderContractPdf(
  data: ContractPdfData,
  options: { compress?: boolean; now?: Date } = {},
): Promise<Buffer> {
  // Loaded at the first PDF, not with the API: pdfkit (and its font tables) is heavy to load.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: options.compress ?? true,
    info: {
      Title: `Contrat de livraison ${data.reference}`,
      Subject: 'Contrat de livraison',
      Creator: 'Filière',
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const section = (title: string) => {
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12).fillColor('#1f5130').text(title);
    doc
      .moveTo(doc.page.margins.left, doc.y + 2)
      .lineTo(doc.page.width - doc.page.margins.right, doc.y + 2)
      .strokeColor('#c9d8cd')
      .stroke();
    doc.moveDown(0.4).fillColor('#000000');
  };
  const line = (label: string, value: string) => {
    doc.font('Helvetica-Bold').fontSize(10).text(`${label} : `, { continued: true });
    doc.font('Helvetica').text(value);
  };

  doc.font('Helvetica-Bold').fontSize(18).fillColor('#1f5130').text('Contrat de livraison');
  doc.font('Helvetica').fontSize(11).fillColor('#000000');
  line('Référence', data.reference);
  line('Statut', STATUS_LABELS[data.status] ?? data.status);
  line('Créé le', formatInstant(data.createdAt));

  section('Parties');
  line(
    'Agrégateur',
    data.aggregator.organization
      ? `${data.aggregator.name} (${data.aggregator.organization})`
      : data.aggregator.name,
  );
  line("Téléphone de l'agrégateur", data.aggregator.phone ?? 'Non renseigné');
  line(
    'Producteur',
    data.grower.reference ? `${data.grower.name} (${data.grower.reference})` : data.grower.name,
  );
  line('Téléphone du producteur', data.grower.phone ?? 'Non renseigné');
  if (data.cooperative) line('Coopérative', data.cooperative);

  section('Objet du contrat');
  const product = data.plot.productType ? PRODUCT_LABELS[data.plot.productType] : null;
  line('Parcelle', product ? `${data.plot.name} (${product})` : data.plot.name);
  if (data.plot.areaSown) line('Superficie', `${data.plot.areaSown.replace('.', ',')} ha`);
  line('Quantité', formatTonnes(data.quantityKg));
  line('Prix par tonne', formatFcfa(pricePerTonne(data.amount, data.quantityKg)));
  line('Montant', formatFcfa(data.amount));
  line('Date de livraison', formatDay(data.deliveryDate));

  if (data.delivery) {
    section('Livraison');
    line('Quantité livrée', formatTonnes(data.delivery.quantityKg));
    if (data.delivery.deliveredOn) line('Livré le', formatDay(data.delivery.deliveredOn));
    if (data.delivery.amount !== null) {
      line('Montant de la livraison', formatFcfa(data.delivery.amount));
    }
    if (data.delivery.recovered !== null) {
      line('Dettes recouvrées', formatFcfa(data.delivery.recovered));
    }
    if (data.delivery.growerNet !== null) {
      line('Net versé au producteur', formatFcfa(data.delivery.growerNet));
    }
  }

  section('Registre');
  if (data.ledger) {
    line('Événement de création', data.ledger.type);
    line('Position dans le registre', String(data.ledger.position));
    line('Enregistré le', formatInstant(data.ledger.recordedAt));
    doc.font('Helvetica-Bold').fontSize(10).text('Empreinte (SHA-256) :');
    doc.font('Courier').fontSize(9).text(data.ledger.hash, { lineBreak: false });
    doc.moveDown(0.6);
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#555555')
      .text(
        "Cette empreinte chaîne l'événement à tous ceux qui le précèdent dans le registre : " +
          'toute modification du contrat la rendrait invalide.',
      );
  } else {
    doc.font('Helvetica').fontSize(10).text("L'événement de création n'est pas encore inscrit.");
  }

  doc
    .moveDown(1.5)
    .font('Helvetica')
    .fontSize(8)
    .fillColor('#555555')
    .text(
      `Document généré le ${formatInstant((options.now ?? new Date()).toISOString())} — contrat ${data.contractId}`,
    );
  doc.end();
  return done;
}
