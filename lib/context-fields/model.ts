export interface LegalValue {
  value: string;
  description?: string;
}

export interface ContextField {
  name: string;
  description: string | null;
  /** Offered as custom stickiness when true. */
  stickiness: boolean;
  sortOrder: number;
  legalValues: LegalValue[];
  createdAt: string;
}
