// Failures the domain reports; the HTTP layer turns each into its problem response.

export class NotFoundError extends Error {
  constructor(readonly what: string) {
    super(`${what} was not found`);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** A count the service caps was reached (endpoints per home, say); the message names the limit. */
export class LimitReachedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LimitReachedError';
  }
}

/** A value that passed the request schema but breaks a domain rule; `field` names it. */
export class InvalidInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'InvalidInputError';
  }
}
