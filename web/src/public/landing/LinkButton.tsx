import { Button, type ButtonProps } from 'antd';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';

/** A button that is a real link: new tab when asked, otherwise client-side navigation. */
export function LinkButton({ to, newTab, ...props }: Omit<ButtonProps, 'href' | 'target'> & { to: string; newTab?: boolean }) {
  const navigate = useNavigate();
  const onClick = (e: MouseEvent<HTMLElement>) => {
    if (newTab || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <Button {...props} href={to} target={newTab ? '_blank' : undefined} rel={newTab ? 'noopener noreferrer' : undefined} onClick={onClick} />;
}
